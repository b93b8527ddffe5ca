import { WritingArea } from './writing-area';

export default function AssignmentPage() {
  return <WritingArea route="ai-assignment" />;
}
