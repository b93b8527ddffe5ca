import type { LoginType } from '@kyfw/contracts';
import {
  DEFAULT_LOGIN_TYPE,
  LOGIN_TYPE_STORAGE_KEY,
  LOGIN_TYPES,
  MESSAGES,
  TOAST_DURATION_MS,
} from '@kyfw/contracts';
import { createStore, useStore } from '../lib/create-store';
import { readStorage, writeStorage } from '../lib/storage';

export type MessageType = 'success' | 'error' | 'warning' | 'info';

/** A pending toast (spec §3 msgMap entry). */
export interface ToastMessage {
  id: string;
  type: MessageType;
  content: string;
}

/** Which service asked for the binding (spec §3 bindType, default 'check'). */
export type BindType = string;

/** Global UI state of spec §3. */
export interface UiState {
  loginModal: boolean;
  bindPhoneModal: boolean;
  bindWxModal: boolean;
  loginType: LoginType;
  loading: boolean;
  loadingContent: string;
  /** Pending toasts by id; each is removed automatically after the toast duration. */
  msgMap: Readonly<Record<string, ToastMessage>>;
  bindType: BindType;
  payFlag: string;
}

function isLoginType(value: unknown): value is LoginType {
  return (LOGIN_TYPES as readonly unknown[]).includes(value);
}

/** The remembered login tab (local storage, login-type key), default wx. */
export function readLoginType(): LoginType {
  const stored = readStorage(LOGIN_TYPE_STORAGE_KEY);
  return isLoginType(stored) ? stored : DEFAULT_LOGIN_TYPE;
}

export function createInitialUiState(): UiState {
  return {
    loginModal: false,
    bindPhoneModal: false,
    bindWxModal: false,
    loginType: readLoginType(),
    loading: false,
    loadingContent: MESSAGES.LOADING_DEFAULT,
    msgMap: {},
    bindType: 'check',
    payFlag: '',
  };
}

export const uiStore = createStore<UiState>(createInitialUiState());

export function useUiStore<T>(selector: (state: UiState) => T): T {
  return useStore(uiStore, selector);
}

let messageSeq = 0;
/** Each pending toast's removal timer and duration. */
const removals = new Map<string, { timer: ReturnType<typeof setTimeout>; durationMs: number }>();

function scheduleRemoval(id: string, durationMs: number): void {
  const previous = removals.get(id);
  if (previous) clearTimeout(previous.timer);
  removals.set(id, { timer: setTimeout(() => removeMessage(id), durationMs), durationMs });
}

/**
 * Adds a toast to the pending list; it is removed 3 s (spec §4) after it is shown — a toast queued
 * before the host mounts (a route guard's 请先登录 on a first load) gets its full 3 s once on
 * screen (the host calls markMessageShown), and is dropped 3 s after queuing when no host shows it.
 * Returns its id.
 */
export function showMessage(
  type: MessageType,
  content: string,
  durationMs: number = TOAST_DURATION_MS,
): string {
  messageSeq += 1;
  const id = `msg-${Date.now()}-${messageSeq}`;
  uiStore.setState((s) => ({ msgMap: { ...s.msgMap, [id]: { id, type, content } } }));
  scheduleRemoval(id, durationMs);
  return id;
}

/** The host put the toast on screen: its duration counts from now. */
export function markMessageShown(id: string): void {
  const pending = removals.get(id);
  if (pending) scheduleRemoval(id, pending.durationMs);
}

export function removeMessage(id: string): void {
  const pending = removals.get(id);
  if (pending) clearTimeout(pending.timer);
  removals.delete(id);
  uiStore.setState((s) => {
    if (!(id in s.msgMap)) return {};
    const { [id]: _removed, ...rest } = s.msgMap;
    return { msgMap: rest };
  });
}

/** Toast shortcuts used by the request layer and features. */
export const toast = {
  success: (content: string) => showMessage('success', content),
  error: (content: string) => showMessage('error', content),
  warning: (content: string) => showMessage('warning', content),
  info: (content: string) => showMessage('info', content),
};

/** Actions on the global UI state. */
export const uiActions = {
  openLoginModal(loginType?: LoginType) {
    if (loginType) uiActions.setLoginType(loginType);
    uiStore.setState({ loginModal: true });
  },
  closeLoginModal() {
    uiStore.setState({ loginModal: false });
  },
  /** Switches the login tab and remembers it in local storage under the login-type key. */
  setLoginType(loginType: LoginType) {
    writeStorage(LOGIN_TYPE_STORAGE_KEY, loginType);
    uiStore.setState({ loginType });
  },
  openBindPhoneModal(bindType?: BindType) {
    uiStore.setState(bindType ? { bindPhoneModal: true, bindType } : { bindPhoneModal: true });
  },
  closeBindPhoneModal() {
    uiStore.setState({ bindPhoneModal: false });
  },
  openBindWxModal(bindType?: BindType) {
    uiStore.setState(bindType ? { bindWxModal: true, bindType } : { bindWxModal: true });
  },
  closeBindWxModal() {
    uiStore.setState({ bindWxModal: false });
  },
  setBindType(bindType: BindType) {
    uiStore.setState({ bindType });
  },
  /** Shows the full-screen loading overlay; default text 提交中. */
  showLoading(content: string = MESSAGES.LOADING_DEFAULT) {
    uiStore.setState({ loading: true, loadingContent: content });
  },
  hideLoading() {
    uiStore.setState({ loading: false, loadingContent: MESSAGES.LOADING_DEFAULT });
  },
  setPayFlag(payFlag: string) {
    uiStore.setState({ payFlag });
  },
};
