import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '../../app/provider';
import { toast, uiActions, uiStore } from '../../stores/ui-store';
import { installDomShims, resetAppState } from '../../testing/test-utils';
import { BaseModal } from '../ui/base-modal';
import { LoadingOverlay } from './loading-overlay';
import { ToastHost } from './toast-host';

vi.setConfig({ testTimeout: 30_000 });
beforeAll(() => installDomShims());
beforeEach(() => resetAppState());
afterEach(() => cleanup());

function withProviders(node: ReactNode) {
  return render(<AppProvider queryClient={createQueryClient()}>{node}</AppProvider>);
}

describe('toasts', () => {
  it('stacks messages with an icon by type', async () => {
    withProviders(<ToastHost />);
    act(() => {
      toast.success('保存成功');
      toast.error('提交失败');
      toast.warning('请先登录');
      toast.info('已复制');
    });
    await screen.findByText('已复制');
    const notices = [...document.querySelectorAll('.ant-message-notice')];
    expect(notices.map((n) => n.textContent)).toEqual(['保存成功', '提交失败', '请先登录', '已复制']);
    expect(document.querySelector('.ant-message-success .anticon-check-circle')).not.toBeNull();
    expect(document.querySelector('.ant-message-error .anticon-close-circle')).not.toBeNull();
    expect(document.querySelector('.ant-message-warning .anticon-exclamation-circle')).not.toBeNull();
    expect(document.querySelector('.ant-message-info .anticon-info-circle')).not.toBeNull();
  });
});

describe('toast duration', () => {
  afterEach(() => vi.useRealTimers());

  it('shows a toast queued before the host mounted (the guard’s 请先登录) for the full 3 s on screen', async () => {
    vi.useFakeTimers();
    act(() => {
      toast.warning('请先登录');
    });
    // the route guard runs before the root (and its host) renders: a second passes
    act(() => vi.advanceTimersByTime(1_000));
    withProviders(<ToastHost />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(screen.getByText('请先登录')).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_800);
    });
    // 2.85 s on screen (3.85 s after queuing): still there
    expect(screen.getByText('请先登录')).toBeTruthy();
    expect(Object.keys(uiStore.getState().msgMap)).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    // gone from the list the host mirrors (antd's leave animation needs no timer of ours)
    expect(Object.keys(uiStore.getState().msgMap)).toHaveLength(0);
  });

  it('drops a toast 3 s after queuing when no host shows it', () => {
    vi.useFakeTimers();
    toast.info('已复制');
    vi.advanceTimersByTime(2_900);
    expect(Object.keys(uiStore.getState().msgMap)).toHaveLength(1);
    vi.advanceTimersByTime(200);
    expect(Object.keys(uiStore.getState().msgMap)).toHaveLength(0);
  });
});

describe('loading overlay', () => {
  it('shows 提交中 by default and a given text otherwise', async () => {
    withProviders(<LoadingOverlay />);
    act(() => uiActions.showLoading());
    expect(await screen.findByText('提交中')).toBeTruthy();
    act(() => uiActions.showLoading('上传中…'));
    expect(await screen.findByText('上传中…')).toBeTruthy();
    act(() => uiActions.hideLoading());
    await waitFor(() => expect(screen.queryByText('上传中…')).toBeNull());
  });
});

describe('BaseModal', () => {
  it('sits 15% from the top as a base modal and 10% as a dialog', async () => {
    const { rerender } = withProviders(
      <BaseModal open onClose={() => {}} title="基础">
        内容
      </BaseModal>,
    );
    await screen.findByText('内容');
    expect((document.querySelector('.ant-modal') as HTMLElement).style.top).toBe('15%');
    rerender(
      <AppProvider queryClient={createQueryClient()}>
        <BaseModal open onClose={() => {}} title="对话框" variant="dialog">
          内容
        </BaseModal>
      </AppProvider>,
    );
    await screen.findByText('对话框');
    expect((document.querySelector('.ant-modal') as HTMLElement).style.top).toBe('10%');
  });

  it('closes from the close icon and from the optional close button', async () => {
    const onClose = vi.fn();
    withProviders(
      <BaseModal open onClose={onClose} title="条款" showCloseButton>
        内容
      </BaseModal>,
    );
    const closeButtons = await screen.findAllByRole('button', { name: /关闭/ });
    expect(closeButtons).toHaveLength(2);
    for (const button of closeButtons) fireEvent.click(button);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('has no close button unless asked', async () => {
    withProviders(
      <BaseModal open onClose={() => {}} title="无按钮">
        内容
      </BaseModal>,
    );
    expect(await screen.findAllByRole('button', { name: /关闭/ })).toHaveLength(1);
  });
});
