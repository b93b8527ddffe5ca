// The paper-check API's wire types come from the contracts (packages/contracts/src/api/check.ts;
// the report model from check-report.ts and aigc-report.ts).
export type {
  AigcParagraph,
  AigcReportModel,
  AigcSection,
  CheckGoods,
  CheckKind,
  CheckListItem,
  CheckPayStatus,
  CheckStage,
  CheckState,
  CheckStatusValue,
  MatchKind,
  ReportFigures,
  ReportFormat,
  ReportMatch,
  ReportModel,
  ReportSection,
  ReportSource,
  UploadResult,
  VerifyResult,
} from '@kyfw/contracts';
