import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { queryKeys } from '../../../lib/queryKeys'
import { sendApi, type BulkSendBody, type SendBody, type TargetedSendBody } from '../api'
import { type SuccessState } from '../successState'
import { outsideHoursNext } from './HoldDialog'

interface Options {
  sendBody: () => SendBody | BulkSendBody | TargetedSendBody
  /** A scheduled send refused outside the hours is not offered the hold. */
  scheduled: boolean
  idempotencyKey: string
  /** After the send was accepted, before the success page opens. */
  onAccepted?: () => void
}

/**
 * POST /send of every send page: on success the credit and reports refresh and
 * /send-sms/success-send/{id} opens; a send refused outside its sending hours sets
 * holdUntil (the hours' next opening) so HoldDialog can offer «نگه داشتن تا ساعت
 * مجاز», which sends again with hold_until_window.
 */
export function useSubmitSend({ sendBody, scheduled, idempotencyKey, onAccepted }: Options) {
  const navigate = useNavigate()
  const location = useLocation()
  const queryClient = useQueryClient()
  const [holdUntil, setHoldUntil] = useState<string | null>(null)
  const send = useMutation({
    mutationFn: (hold: boolean) => sendApi.send(hold ? { ...sendBody(), hold_until_window: true } : sendBody(), idempotencyKey),
    // The page shows every refusal itself: the hold question, or its alert.
    meta: { silent: true },
    onError: (e) => setHoldUntil(scheduled ? null : outsideHoursNext(e)),
    onSuccess: (r) => {
      setHoldUntil(null)
      void queryClient.invalidateQueries({ queryKey: queryKeys.credit })
      void queryClient.invalidateQueries({ queryKey: queryKeys.reports })
      onAccepted?.()
      navigate(`/send-sms/success-send/${r.id}`, { state: { ...r, from: location.pathname } satisfies SuccessState })
    },
  })
  return { send, holdUntil, clearHold: () => setHoldUntil(null) }
}
