import { WritingArea } from './writing-area';

export default function ProposalPage() {
  return <WritingArea route="ai-proposal" />;
}
