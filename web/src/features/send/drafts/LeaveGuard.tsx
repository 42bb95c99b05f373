import { Button, Text } from '@chakra-ui/react'
import { useContext, useEffect, useRef, useState, type RefObject } from 'react'
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router'
import { Modal } from '../../../components/Overlays'

interface Props {
  /** The wizard holds work: leaving asks first. */
  when: boolean
  /** Set when the wizard itself moves on (a finished send): no question then. */
  passRef: RefObject<boolean>
  /** Saves the draft's last changes before leaving. */
  flush: () => Promise<void>
  /** What leaving loses (a page without drafts says the work is dropped). */
  note?: string
}

const DRAFT_NOTE =
  'شماره‌ها و متن این ارسال هنوز فرستاده نشده‌اند. پیش‌نویس آن خودکار ذخیره می‌شود و هر وقت به این روش ارسال برگردید یا از «پیش‌نویس‌ها» می‌توانید ادامه دهید.'

/**
 * Asks before a wizard holding work is left: a link or «بازگشت» inside the panel opens
 * «خروج از ارسال؟» (the draft is saved first), and closing or reloading the tab gets the
 * browser's own question. Only under a data router (the app's); elsewhere it does nothing.
 */
export function LeaveGuard(props: Props) {
  const dataRouter = useContext(UNSAFE_DataRouterContext)
  return dataRouter ? <Guard {...props} /> : null
}

function Guard({ when, passRef, flush, note = DRAFT_NOTE }: Props) {
  const whenRef = useRef(when)
  whenRef.current = when
  const [leaving, setLeaving] = useState(false)
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => whenRef.current && !passRef.current && currentLocation.pathname !== nextLocation.pathname,
  )
  useEffect(() => {
    if (!when) return
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault()
      e.returnValue = ''
    }
    window.addEventListener('beforeunload', ask)
    return () => window.removeEventListener('beforeunload', ask)
  }, [when])
  const leave = async () => {
    setLeaving(true)
    await flush().catch(() => undefined)
    setLeaving(false)
    if (blocker.state === 'blocked') blocker.proceed()
  }
  const stay = () => blocker.state === 'blocked' && blocker.reset()
  return (
    <Modal
      open={blocker.state === 'blocked'}
      onClose={stay}
      title="از این ارسال خارج می‌شوید؟"
      size="sm"
      footer={
        <>
          <Button variant="ghost" onClick={stay} data-testid="leave-stay">
            ماندن و ادامه
          </Button>
          <Button colorPalette="brand" loading={leaving} onClick={() => void leave()} data-testid="leave-confirm">
            خروج
          </Button>
        </>
      }
    >
      <Text data-testid="leave-dialog">{note}</Text>
    </Modal>
  )
}
