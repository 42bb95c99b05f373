import { Button, HStack } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { StopIcon } from '../../components/outlineIcons'
import { api } from '../../lib/api'
import { queryKeys } from '../../lib/queryKeys'
import { toaster } from '../../lib/toaster'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { PauseIcon, PlayIcon } from '../../components/actionIcons'
import type { BulkStats } from '../../lib/reports'
import { isStoppable } from '../../lib/statuses'

export type ControlAction = 'pause' | 'resume' | 'stop'

/** One pause, resume, stop or reschedule of a send: who did it and when (bulk_stats `controls`). */
export interface SendControl {
  action: ControlAction | 'reschedule'
  by: string
  at: string
}

/** bulk_stats with the control fields of the send engine. */
export type ControlledStats = BulkStats & { paused?: boolean; controls?: SendControl[] }

export const CONTROL_LABEL: Record<SendControl['action'], string> = { pause: 'توقف موقت', resume: 'ادامه ارسال', stop: 'توقف کامل', reschedule: 'تغییر زمان' }

export function isPaused(s: Pick<ControlledStats, 'status' | 'paused'>): boolean {
  return s.status === 'paused' || !!s.paused
}

/** Which controls a send offers now. */
export function availableControls(s: Pick<ControlledStats, 'status' | 'paused'>): ControlAction[] {
  const out: ControlAction[] = []
  if (isPaused(s)) out.push('resume')
  else if (s.status === 'queued' || s.status === 'sending') out.push('pause')
  if (isStoppable(s.status)) out.push('stop')
  return out
}

const PATH: Record<ControlAction, string> = { pause: '/send/pause', resume: '/send/resume', stop: '/send/cancel' }

function useSendControl(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (action: ControlAction) => api.post<unknown>(PATH[action], { id: Number.isFinite(Number(id)) ? Number(id) : id }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.report(id) })
      void qc.invalidateQueries({ queryKey: queryKeys.reports })
      void qc.invalidateQueries({ queryKey: queryKeys.credit })
    },
  })
}

interface Dialog {
  title: string
  text: string
  confirm: string
  done: string
  color: string
}

function dialogOf(action: ControlAction, scheduled: boolean): Dialog {
  if (action === 'pause')
    return {
      title: 'توقف موقت ارسال',
      text: 'پیامک‌های باقی‌مانده تا زمانی که «ادامه ارسال» را بزنید ارسال نمی‌شوند. پیامک‌هایی که پیش‌تر ارسال شده‌اند گزارش خود را دریافت می‌کنند. ادامه می‌دهید؟',
      confirm: 'بله، موقتا متوقف شود',
      done: 'ارسال موقتا متوقف شد',
      color: 'yellow',
    }
  if (action === 'resume')
    return { title: 'ادامه ارسال', text: 'ارسال پیامک‌های باقی‌مانده از سر گرفته می‌شود. ادامه می‌دهید؟', confirm: 'بله، ادامه یابد', done: 'ارسال ادامه یافت', color: 'brand' }
  return scheduled
    ? {
        title: 'لغو ارسال زمان‌بندی‌شده',
        text: 'این ارسال انجام نخواهد شد و مبلغ آن به کیف پول شما بازمی‌گردد. ادامه می‌دهید؟',
        confirm: 'بله، لغو شود',
        done: 'ارسال زمان‌بندی‌شده لغو شد',
        color: 'red',
      }
    : {
        title: 'توقف ارسال',
        text: 'پیامک‌هایی که هنوز ارسال نشده‌اند ارسال نخواهند شد و هزینه آن‌ها به کیف پول شما بازمی‌گردد. این کار برگشت‌پذیر نیست. ادامه می‌دهید؟',
        confirm: 'بله، متوقف شود',
        done: 'ارسال متوقف شد',
        color: 'red',
      }
}

/** Pause, resume and stop (or cancel, when scheduled) of a send, each after a confirmation. */
export function SendControls({ id, stats }: { id: string; stats: ControlledStats }) {
  const [open, setOpen] = useState<ControlAction | null>(null)
  const control = useSendControl(id)
  const scheduled = stats.status === 'scheduled'
  const actions = availableControls(stats)
  const dialog = open && dialogOf(open, scheduled)
  const confirm = () => {
    if (!open || !dialog) return
    control.mutate(open, {
      onSuccess: () => {
        setOpen(null)
        toaster.create({ type: 'success', title: dialog.done, description: open === 'stop' ? 'هزینه گیرندگان ارسال‌نشده به کیف پول بازمی‌گردد.' : undefined })
      },
    })
  }
  const ask = (a: ControlAction) => {
    control.reset()
    setOpen(a)
  }
  if (!actions.length) return null
  return (
    <HStack gap="2">
      {actions.includes('pause') && (
        <Button colorPalette="yellow" variant="outline" size="sm" onClick={() => ask('pause')} data-testid="pause-send">
          <PauseIcon /> توقف موقت
        </Button>
      )}
      {actions.includes('resume') && (
        <Button colorPalette="brand" size="sm" onClick={() => ask('resume')} data-testid="resume-send">
          <PlayIcon /> ادامه ارسال
        </Button>
      )}
      {actions.includes('stop') && (
        <Button colorPalette="red" variant="outline" size="sm" onClick={() => ask('stop')} data-testid="stop-send">
          <StopIcon /> {scheduled ? 'لغو ارسال' : 'توقف ارسال'}
        </Button>
      )}
      {dialog && (
        <ConfirmDialog
          open
          onClose={() => setOpen(null)}
          title={dialog.title}
          confirmLabel={dialog.confirm}
          colorPalette={dialog.color}
          onConfirm={confirm}
          loading={control.isPending}
          error={control.error}
          testId={`${open}-confirm`}
        >
          {dialog.text}
        </ConfirmDialog>
      )}
    </HStack>
  )
}
