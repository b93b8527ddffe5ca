import { ErrorCode, QR_REFRESH_AFTER_POLLS, STATUS_POLL_INTERVAL_MS } from '@kyfw/contracts';
import { useEffect, useRef, useState } from 'react';
import type { RequestError, RequestResult } from '../../../lib/request';
import { toast } from '../../../stores/ui-store';
import type { QrCode } from '../types';

/** What to do with a business error of a poll: 1005 is always 'refresh'. */
export type PollErrorAction = 'refresh' | 'stop' | 'ignore';

export interface QrPollingOptions<T> {
  /** Poll only while true (the WeChat tab of an open dialog, spec §4); stops otherwise. */
  active: boolean;
  fetchQr: () => Promise<RequestResult<QrCode>>;
  poll: (qr: QrCode) => Promise<RequestResult<T>>;
  isDone: (data: T) => boolean;
  /** Runs once when a poll says done; polling has stopped then. */
  onDone: (data: T, qr: QrCode) => void | Promise<void>;
  /**
   * Business errors other than 1005: 'refresh' shows the message and fetches a new QR, 'stop'
   * shows it and stops; default 'ignore' (other polling errors are silent, spec §4).
   */
  onPollError?: (error: RequestError) => PollErrorAction;
}

export type QrStatus = 'loading' | 'ready' | 'error' | 'done' | 'stopped';

export interface QrPollingState {
  status: QrStatus;
  qr: QrCode | null;
  /** Why the QR could not be fetched, or why polling stopped. */
  message: string | null;
}

/** A QR is not resumed when less than this is left of its life; a new one is fetched instead. */
const RESUME_MARGIN_MS = 30_000;
const DEFAULT_QR_LIFE_SECONDS = 600;

/**
 * The QR state machine shared by WeChat login, WeChat binding and deletion by re-scan (spec §4):
 * fetch a QR, poll every 3 s while active (one poll at a time), fetch a new QR after 100 polls
 * without success, on 1005 show its message and fetch a new QR; other polling errors are silent.
 */
function createQrMachine<T>(
  getOptions: () => QrPollingOptions<T>,
  setState: (state: QrPollingState) => void,
) {
  let current: { qr: QrCode; fetchedAt: number; polls: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight = false;
  /** Bumped whenever running work must be abandoned (deactivated, unmounted, new QR, done). */
  let generation = 0;

  function clearTimer() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function schedule(gen: number) {
    clearTimer();
    timer = setTimeout(() => void tick(gen), STATUS_POLL_INTERVAL_MS);
  }

  async function load(gen: number) {
    current = null;
    setState({ status: 'loading', qr: null, message: null });
    const [error, qr] = await getOptions().fetchQr();
    if (gen !== generation) return;
    if (error) {
      setState({ status: 'error', qr: null, message: error.message });
      return;
    }
    current = { qr, fetchedAt: Date.now(), polls: 0 };
    setState({ status: 'ready', qr, message: null });
    schedule(gen);
  }

  function restart() {
    generation += 1;
    clearTimer();
    void load(generation);
  }

  function halt(status: 'done' | 'stopped', qr: QrCode, message: string | null) {
    generation += 1;
    clearTimer();
    current = null;
    setState({ status, qr, message });
  }

  async function tick(gen: number) {
    const polled = current;
    if (!polled) return;
    if (inFlight) {
      // A poll of an earlier run is still out: try again a bit later.
      schedule(gen);
      return;
    }
    inFlight = true;
    polled.polls += 1;
    const options = getOptions();
    const [error, data] = await options.poll(polled.qr);
    inFlight = false;
    if (gen !== generation) return;
    if (error) {
      if (error.kind === 'business') {
        const action: PollErrorAction =
          error.code === ErrorCode.QR_EXPIRED ? 'refresh' : (options.onPollError?.(error) ?? 'ignore');
        if (action === 'refresh') {
          toast.error(error.message);
          restart();
          return;
        }
        if (action === 'stop') {
          toast.error(error.message);
          halt('stopped', polled.qr, error.message);
          return;
        }
      }
    } else if (options.isDone(data)) {
      halt('done', polled.qr, null);
      await options.onDone(data, polled.qr);
      return;
    }
    if (polled.polls >= QR_REFRESH_AFTER_POLLS) {
      restart();
      return;
    }
    schedule(gen);
  }

  return {
    /** Starts (or resumes a still fresh QR) when the panel becomes active. */
    activate() {
      generation += 1;
      const life = (current?.qr.expireSeconds ?? DEFAULT_QR_LIFE_SECONDS) * 1000;
      if (current && Date.now() - current.fetchedAt < life - RESUME_MARGIN_MS) {
        setState({ status: 'ready', qr: current.qr, message: null });
        schedule(generation);
      } else {
        void load(generation);
      }
    },
    /** Stops polling (inactive tab, closed dialog, unmount). */
    deactivate() {
      generation += 1;
      clearTimer();
    },
    restart,
    /** Polls right away (after a simulated scan) instead of waiting for the next tick. */
    pollNow() {
      if (!current || inFlight) return;
      clearTimer();
      void tick(generation);
    },
  };
}

/** React binding of the QR machine: runs while `options.active`; see createQrMachine. */
export function useQrPolling<T>(options: QrPollingOptions<T>) {
  const [state, setState] = useState<QrPollingState>({ status: 'loading', qr: null, message: null });
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });
  const [machine] = useState(() => createQrMachine<T>(() => optionsRef.current, setState));
  const { active } = options;
  useEffect(() => {
    if (!active) return;
    machine.activate();
    return () => machine.deactivate();
  }, [active, machine]);
  return { ...state, refresh: machine.restart, pollNow: machine.pollNow };
}
