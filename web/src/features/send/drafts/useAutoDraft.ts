import { useEffect } from 'react'
import type { WizardState } from './model'
import { stateKey, type useDraftSaver } from './useDraft'

/** How long the editing pauses before the wizard saves its draft by itself. */
export const AUTOSAVE_DELAY = 1500

/** Whether a wizard holds work worth keeping: text or recipients (the preselected line alone is not). */
export function hasWork(s: WizardState): boolean {
  const file = s.fileId !== null && s.fileId !== undefined && s.fileId !== ''
  return !!s.text.trim() || !!s.numbers?.length || file || !!s.phonebookIds?.length
}

type Saver = ReturnType<typeof useDraftSaver>

/**
 * Keeps a wizard's draft automatically: once it holds work, every pause of AUTOSAVE_DELAY
 * in the editing saves it (one save at a time; a state a save refused is not retried until
 * it changes). flush saves what is not saved yet, at once.
 */
export function useAutoDraft(saver: Saver, state: WizardState | undefined, enabled: boolean) {
  const key = state ? stateKey(state) : ''
  const dirty = !!state && hasWork(state)
  const unsaved = dirty && key !== saver.savedKey
  const due = enabled && unsaved && !saver.saving && key !== saver.failedKey
  useEffect(() => {
    if (!due || !state) return
    const t = setTimeout(() => void saver.autosave(state).catch(() => undefined), AUTOSAVE_DELAY)
    return () => clearTimeout(t)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for the state; saver is a fresh object each render
  }, [due, key])
  const flush = async () => {
    if (unsaved && state && !saver.saving) await saver.autosave(state)
  }
  return { dirty, unsaved, flush }
}
