import {
  API_PREFIX,
  type BodyOf,
  type ConsoleOrderDetail,
  type ConsoleProof,
  consoleApi,
  type DataOf,
  type Staff,
} from '@kyfw/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';

/** The console's query keys, in one place. */
export const consoleKeys = {
  all: ['console'] as const,
  me: ['console', 'me'] as const,
  dashboard: ['console', 'dashboard'] as const,
  orders: (filter: unknown) => ['console', 'orders', filter] as const,
  order: (orderNo: string) => ['console', 'order', orderNo] as const,
  proofs: (status: string) => ['console', 'proofs', status] as const,
  audit: (filter: unknown) => ['console', 'audit', filter] as const,
  staff: ['console', 'staff'] as const,
  failedRefunds: ['console', 'failedRefunds'] as const,
  users: (phone: string) => ['console', 'users', phone] as const,
  failedJobs: ['console', 'failedJobs'] as const,
  llmUsage: (days: number) => ['console', 'llmUsage', days] as const,
  invoices: (tab: string) => ['console', 'invoices', tab] as const,
  invoiceSettings: ['console', 'invoiceSettings'] as const,
  deliveries: (shipped: boolean) => ['console', 'deliveries', shipped] as const,
};

/** One console call: its data, or the error (shown as a toast unless silent). */
export const consolePost = <E extends (typeof consoleApi)[keyof typeof consoleApi]>(
  endpoint: E,
  data?: unknown,
  silent = false,
) => unwrap(request<DataOf<E>>(endpoint.path, { data: data ?? {}, silent }));

/** The staff session (silent: no session just means the login page). */
export function useStaff() {
  return useQuery({
    queryKey: consoleKeys.me,
    queryFn: () => consolePost(consoleApi.me, {}, true),
    retry: false,
    staleTime: 60_000,
  });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof consoleApi.login>) => consolePost(consoleApi.login, body),
    onSuccess: (staff: Staff) => queryClient.setQueryData(consoleKeys.me, staff),
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => consolePost(consoleApi.logout),
    onSettled: () => queryClient.removeQueries({ queryKey: consoleKeys.all }),
  });
}

export function useDashboard() {
  return useQuery({
    queryKey: consoleKeys.dashboard,
    queryFn: () => consolePost(consoleApi.dashboard, { days: 14 }),
  });
}

export type OrderFilter = BodyOf<typeof consoleApi.orderSearch>;

export function useOrderSearch(filter: OrderFilter) {
  return useQuery({
    queryKey: consoleKeys.orders(filter),
    queryFn: () => consolePost(consoleApi.orderSearch, filter),
  });
}

export function useConsoleOrder(orderNo: string | null) {
  return useQuery<ConsoleOrderDetail>({
    queryKey: consoleKeys.order(orderNo ?? ''),
    queryFn: () => consolePost(consoleApi.orderDetail, { orderNo }),
    enabled: Boolean(orderNo),
  });
}

export function useProofs(status: ConsoleProof['status']) {
  return useQuery({
    queryKey: consoleKeys.proofs(status),
    queryFn: () => consolePost(consoleApi.proofList, { status }),
  });
}

/** The proof file as the browser opens it (the staff cookie goes along: same origin, its path). */
export function proofFileUrl(proofId: string): string {
  return `${API_PREFIX}${consoleApi.proofFile.path}?proofId=${encodeURIComponent(proofId)}`;
}

function useInvalidatingMutation<V, R>(fn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: consoleKeys.all }),
  });
}

export const useConfirmProof = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.proofConfirm>) =>
    consolePost(consoleApi.proofConfirm, body),
  );
export const useRejectProof = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.proofReject>) =>
    consolePost(consoleApi.proofReject, body),
  );
export const useRefund = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.refund>) => consolePost(consoleApi.refund, body));

export type AuditFilter = BodyOf<typeof consoleApi.auditList>;

export function useAudit(filter: AuditFilter) {
  return useQuery({
    queryKey: consoleKeys.audit(filter),
    queryFn: () => consolePost(consoleApi.auditList, filter),
  });
}

// --- staff accounts (admin) ---------------------------------------------------------------------

export function useStaffList() {
  return useQuery({ queryKey: consoleKeys.staff, queryFn: () => consolePost(consoleApi.staffList) });
}
export const useCreateStaff = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.staffCreate>) =>
    consolePost(consoleApi.staffCreate, body),
  );
export const useUpdateStaff = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.staffUpdate>) =>
    consolePost(consoleApi.staffUpdate, body),
  );
export const useResetStaffTotp = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.staffResetTotp>) =>
    consolePost(consoleApi.staffResetTotp, body),
  );

// --- refunds that failed --------------------------------------------------------------------------

export function useFailedRefunds() {
  return useQuery({
    queryKey: consoleKeys.failedRefunds,
    queryFn: () => consolePost(consoleApi.failedRefunds),
  });
}
export const useRetryRefund = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.refundRetry>) =>
    consolePost(consoleApi.refundRetry, body),
  );
export const useMarkRefundDone = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.refundMarkDone>) =>
    consolePost(consoleApi.refundMarkDone, body),
  );

// --- invoices and courier shipping ------------------------------------------------------------------

export type InvoiceTab = NonNullable<BodyOf<typeof consoleApi.invoiceList>['tab']>;

export function useInvoices(tab: InvoiceTab) {
  return useQuery({
    queryKey: consoleKeys.invoices(tab),
    queryFn: () => consolePost(consoleApi.invoiceList, { tab }),
  });
}
/** 开票方式 (decision 0031). */
export function useInvoiceSettings() {
  return useQuery({
    queryKey: consoleKeys.invoiceSettings,
    queryFn: () => consolePost(consoleApi.invoiceSettings),
  });
}
export const useSaveInvoiceSettings = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.invoiceSettingsSave>) =>
    consolePost(consoleApi.invoiceSettingsSave, body),
  );
export const useGenerateInvoice = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.invoiceGenerate>) =>
    consolePost(consoleApi.invoiceGenerate, body),
  );
/** Records the 红冲 of an issued invoice whose order was refunded, with the red invoice's number. */
export const useReverseInvoice = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.invoiceReverse>) =>
    consolePost(consoleApi.invoiceReverse, body),
  );
/** Posts an invoice's PDF (multipart: invoiceId, file) to an upload endpoint. */
const invoicePdfUpload =
  (endpoint: typeof consoleApi.invoiceUpload | typeof consoleApi.invoiceReversalUpload) => () =>
    useInvalidatingMutation(({ invoiceId, file }: { invoiceId: string; file: File }) => {
      const form = new FormData();
      form.append('invoiceId', invoiceId);
      form.append('file', file);
      return consolePost(endpoint, form);
    });
/** Attaches the real invoice PDF. */
export const useUploadInvoice = invoicePdfUpload(consoleApi.invoiceUpload);
/** Attaches the red invoice's PDF to a recorded 红冲. */
export const useUploadReversalPdf = invoicePdfUpload(consoleApi.invoiceReversalUpload);
/** The invoice PDF (or with `red` the red invoice's) as the browser opens it (the staff cookie goes along). */
export function invoiceFileUrl(invoiceId: string, red = false): string {
  const endpoint = red ? consoleApi.invoiceReversalFile : consoleApi.invoiceFile;
  return `${API_PREFIX}${endpoint.path}?invoiceId=${encodeURIComponent(invoiceId)}`;
}

export function useDeliveries(shipped: boolean) {
  return useQuery({
    queryKey: consoleKeys.deliveries(shipped),
    queryFn: () => consolePost(consoleApi.deliveryList, { shipped }),
  });
}
export const useShip = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.deliveryShip>) =>
    consolePost(consoleApi.deliveryShip, body),
  );

// --- users, failed jobs, AI usage ---------------------------------------------------------------

export function useUserSearch(phone: string | null) {
  return useQuery({
    queryKey: consoleKeys.users(phone ?? ''),
    queryFn: () => consolePost(consoleApi.userSearch, { phone }),
    enabled: Boolean(phone),
  });
}
export function useFailedJobs() {
  return useQuery({ queryKey: consoleKeys.failedJobs, queryFn: () => consolePost(consoleApi.failedJobs) });
}
export const useRetryJob = () =>
  useInvalidatingMutation((body: BodyOf<typeof consoleApi.jobRetry>) =>
    consolePost(consoleApi.jobRetry, body),
  );
export function useLlmUsage(days: number) {
  return useQuery({
    queryKey: consoleKeys.llmUsage(days),
    queryFn: () => consolePost(consoleApi.llmUsage, { days }),
  });
}
