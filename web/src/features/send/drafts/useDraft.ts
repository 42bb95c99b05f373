import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { errorText } from '../../../lib/apiError'
import { useSenderLines } from '../../../lib/lines'
import { toaster } from '../../../lib/toaster'
import { DRAFTS_KEY, draftApi, type DraftType } from '../api'
import { fromDraft, toDraftBody, type WizardState } from './model'

/** A wizard state's identity for «saved or not»: its draft body. */
export const stateKey = (s: WizardState) => JSON.stringify(toDraftBody('quick', s))

/** A wizard resuming `?draft=<id>`: the draft's id, and whether it is still loading or failed. */
export interface ResumeState {
  draftId: number | null
  loading: boolean
  error: unknown
  retry: () => void
}

/**
 * Resumes the draft named by `?draft=<id>`: once it and the sender lines are loaded,
 * apply receives the wizard state it holds (once).
 */
export function useResumeDraft(apply: (state: ReturnType<typeof fromDraft>) => void): ResumeState {
  const [params] = useSearchParams()
  const raw = params.get('draft')
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null
  const lines = useSenderLines()
  const q = useQuery({
    queryKey: [...DRAFTS_KEY, 'show', id],
    queryFn: ({ signal }) => draftApi.show(id as number, signal),
    enabled: id !== null,
    retry: false,
  })
  const applied = useRef<number | null>(null)
  const linesSettled = !!lines.data || lines.isError
  useEffect(() => {
    if (!q.data || !linesSettled || applied.current === q.data.id) return
    applied.current = q.data.id
    apply(fromDraft(q.data, lines.data))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- apply is a fresh closure each render; the draft is applied once
  }, [q.data, linesSettled])
  return {
    draftId: id,
    loading: id !== null && (q.isPending || (!!q.data && !linesSettled)),
    error: id !== null ? q.error : null,
    retry: () => void q.refetch(),
  }
}

/**
 * «ذخیره پیش‌نویس» of a wizard: the first save creates the draft (or replaces the
 * resumed one), later saves replace it; a finished send removes it. An automatic save
 * (autosave) is silent unless it fails; one save runs at a time.
 */
export function useDraftSaver(type: DraftType, resumedId: number | null) {
  const qc = useQueryClient()
  const [savedId, setSavedId] = useState<number | null>(null)
  const [savedAt, setSavedAt] = useState<Date | null>(null)
  // The wizard state last saved, and the last one a save refused (not retried by itself).
  const [savedKey, setSavedKey] = useState<string | null>(null)
  const [failedKey, setFailedKey] = useState<string | null>(null)
  const id = savedId ?? resumedId
  const save = useMutation({
    mutationFn: ({ state }: { state: WizardState; silent: boolean }) => draftApi.save(toDraftBody(type, state, id)),
    onSuccess: (d, { state, silent }) => {
      setSavedId(d.id)
      setSavedKey(stateKey(state))
      setSavedAt(new Date())
      void qc.invalidateQueries({ queryKey: DRAFTS_KEY })
      if (!silent) toaster.create({ type: 'success', title: 'پیش‌نویس ذخیره شد', description: 'از «پیش‌نویس‌ها» می‌توانید ادامه دهید' })
    },
    onError: (err, { state }) => {
      setFailedKey(stateKey(state))
      toaster.create({ id: 'draft-save', type: 'error', title: 'پیش‌نویس ذخیره نشد', description: errorText(err) })
    },
  })
  const discard = () => {
    if (!id) return
    draftApi.remove(id).then(() => qc.invalidateQueries({ queryKey: DRAFTS_KEY }), () => undefined)
  }
  return {
    id,
    save: (state: WizardState) => save.mutate({ state, silent: false }),
    autosave: (state: WizardState) => save.mutateAsync({ state, silent: true }),
    saving: save.isPending,
    savedAt,
    savedKey,
    failedKey,
    discard,
  }
}
