import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages, resetAppState } from '../testing/test-utils';
import { createInitialUiState, readLoginType, toast, uiActions, uiStore } from './ui-store';

beforeEach(() => resetAppState());
afterEach(() => vi.useRealTimers());

describe('global UI state', () => {
  it('starts with the defaults of spec §3', () => {
    expect(createInitialUiState()).toEqual({
      loginModal: false,
      bindPhoneModal: false,
      bindWxModal: false,
      loginType: 'wx',
      loading: false,
      loadingContent: '提交中',
      msgMap: {},
      bindType: 'check',
      payFlag: '',
    });
  });

  it('remembers the login tab in local storage under the login-type key', () => {
    uiActions.setLoginType('account');
    expect(localStorage.getItem('loginType')).toBe('account');
    expect(uiStore.getState().loginType).toBe('account');
    // A fresh page load starts from the remembered tab.
    expect(createInitialUiState().loginType).toBe('account');
  });

  it('falls back to wx for a missing or unknown stored value', () => {
    expect(readLoginType()).toBe('wx');
    localStorage.setItem('loginType', 'qq');
    expect(readLoginType()).toBe('wx');
  });

  it('shows the loading overlay with 提交中 by default or a given text', () => {
    uiActions.showLoading();
    expect(uiStore.getState()).toMatchObject({ loading: true, loadingContent: '提交中' });
    uiActions.showLoading('上传中');
    expect(uiStore.getState().loadingContent).toBe('上传中');
    uiActions.hideLoading();
    expect(uiStore.getState()).toMatchObject({ loading: false, loadingContent: '提交中' });
  });

  it('stacks toasts and removes each 3 seconds after it was added', () => {
    vi.useFakeTimers();
    toast.success('保存成功');
    vi.advanceTimersByTime(1_000);
    toast.error('网络异常');
    expect(messages()).toEqual([
      { type: 'success', content: '保存成功' },
      { type: 'error', content: '网络异常' },
    ]);
    vi.advanceTimersByTime(2_000);
    expect(messages()).toEqual([{ type: 'error', content: '网络异常' }]);
    vi.advanceTimersByTime(1_000);
    expect(messages()).toEqual([]);
  });

  it('opens the bind dialogs with the service that asked', () => {
    uiActions.openBindPhoneModal('reduction');
    expect(uiStore.getState()).toMatchObject({ bindPhoneModal: true, bindType: 'reduction' });
    uiActions.closeBindPhoneModal();
    uiActions.openBindWxModal();
    expect(uiStore.getState()).toMatchObject({
      bindPhoneModal: false,
      bindWxModal: true,
      bindType: 'reduction',
    });
  });
});
