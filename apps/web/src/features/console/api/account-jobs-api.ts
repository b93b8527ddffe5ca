import type {
  AccountRequest,
  jobsAdminApi,
  Page,
  StuckJob,
  StuckNotice,
  UserDetail,
  userAdminApi,
} from '@kyfw/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../lib/query';
import { request } from '../../../lib/request';

/** The paths of userAdminApi and jobsAdminApi, written out so no zod enters the page. */
const PATHS = {
  userDetail: '/admin/users/detail',
  userLock: '/admin/users/lock',
  userUnlock: '/admin/users/unlock',
  accountRequests: '/admin/users/requests',
  stuckJobs: '/admin/jobs/stuck',
  stuckRetry: '/admin/jobs/stuckRetry',
  stuckNotices: '/admin/jobs/stuckNotices',
  noticeResend: '/admin/jobs/noticeResend',
} as const satisfies Record<keyof typeof userAdminApi | keyof typeof jobsAdminApi, string>;

const keys = {
  user: (userId: string) => ['console', 'user', userId] as const,
  requests: (filter: unknown) => ['console', 'accountRequests', filter] as const,
  stuck: ['console', 'stuckJobs'] as const,
  notices: ['console', 'stuckNotices'] as const,
};

/** An account's lock, free uses and export/deletion requests. */
export function useUserDetail(userId: string | null) {
  return useQuery({
    queryKey: keys.user(userId ?? ''),
    queryFn: () => unwrap(request<UserDetail>(PATHS.userDetail, { data: { userId } })),
    enabled: Boolean(userId),
  });
}

/** Locks (with a reason) or unlocks an account. */
export function useSetUserLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, reason }: { userId: string; reason: string | null }) =>
      unwrap(
        request<UserDetail>(reason === null ? PATHS.userUnlock : PATHS.userLock, {
          data: reason === null ? { userId } : { userId, reason },
        }),
      ),
    onSuccess: (detail) => {
      queryClient.setQueryData(keys.user(detail.userId), detail);
      void queryClient.invalidateQueries({ queryKey: ['console', 'users'] });
    },
  });
}

export function useAccountRequests(filter: { kind?: 'export' | 'deletion'; page: number; pageSize: number }) {
  return useQuery({
    queryKey: keys.requests(filter),
    queryFn: () => unwrap(request<Page<AccountRequest>>(PATHS.accountRequests, { data: filter })),
  });
}

export function useStuckJobs() {
  return useQuery({ queryKey: keys.stuck, queryFn: () => unwrap(request<StuckJob[]>(PATHS.stuckJobs, {})) });
}

export function useRequeueStuckJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) =>
      unwrap(request<{ jobId: string; name: string }>(PATHS.stuckRetry, { data: { jobId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.stuck }),
  });
}

/** Commission e-mail notices that did not go out (sending past the lease, or failed). */
export function useStuckNotices() {
  return useQuery({
    queryKey: keys.notices,
    queryFn: () => unwrap(request<StuckNotice[]>(PATHS.stuckNotices, {})),
  });
}

/** Sends a stuck notice again (the server applies it only while it is still stuck). */
export function useResendNotice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (noticeId: string) =>
      unwrap(request<{ noticeId: string }>(PATHS.noticeResend, { data: { noticeId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.notices }),
  });
}
