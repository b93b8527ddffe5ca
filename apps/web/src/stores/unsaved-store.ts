import { createStore, useStore } from '../lib/create-store';

/**
 * Whether a page holds input the user has not saved yet (the AI writing forms). The leave
 * confirmation of spec §2 asks only then, never on an empty page.
 */
export const unsavedStore = createStore({ unsaved: false });

export function setUnsavedInput(unsaved: boolean): void {
  if (unsavedStore.getState().unsaved !== unsaved) unsavedStore.setState({ unsaved });
}

export function useUnsavedInput(): boolean {
  return useStore(unsavedStore, (s) => s.unsaved);
}
