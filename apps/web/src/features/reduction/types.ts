// The reduction API's wire types come from the contracts (packages/contracts/src/api/reduction.ts).
export type {
  ReductionItem,
  ReductionKind,
  ReductionPrice,
  ReductionResult,
  ReductionView,
  SubmittedReduction,
} from '@kyfw/contracts';
