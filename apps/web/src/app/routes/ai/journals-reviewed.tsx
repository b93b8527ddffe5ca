import { WritingArea } from './writing-area';

export default function JournalsReviewedPage() {
  return <WritingArea route="ai-journalsReviewed" />;
}
