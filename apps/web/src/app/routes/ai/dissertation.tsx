import { WritingArea } from './writing-area';

export default function DissertationPage() {
  return <WritingArea route="ai-dissertation" />;
}
