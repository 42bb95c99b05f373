import { Button, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { Modal } from '../../components/Overlays'
import { StopIcon } from '../../app/icons'
import { toaster } from '../../lib/toaster'
import { useCancelSend } from './api'

/** Stops a running send or cancels a scheduled one (POST /send/cancel) after a confirmation. */
export function StopSendButton({ id, scheduled }: { id: string; scheduled: boolean }) {
  const [open, setOpen] = useState(false)
  const cancel = useCancelSend(id)
  const confirm = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setOpen(false)
        toaster.create({ type: 'success', title: scheduled ? 'ارسال زمان‌بندی‌شده لغو شد' : 'ارسال متوقف شد', description: 'هزینه گیرندگان ارسال‌نشده به کیف پول بازمی‌گردد.' })
      },
    })
  return (
    <>
      <Button colorPalette="red" variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="stop-send">
        <StopIcon /> {scheduled ? 'لغو ارسال' : 'توقف ارسال'}
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={scheduled ? 'لغو ارسال زمان‌بندی‌شده' : 'توقف ارسال'}
        size="sm"
        footer={
          <>
            <Button variant="ghost" onClick={() => setOpen(false)}>
              انصراف
            </Button>
            <Button colorPalette="red" loading={cancel.isPending} onClick={confirm} data-testid="stop-confirm">
              {scheduled ? 'بله، لغو شود' : 'بله، متوقف شود'}
            </Button>
          </>
        }
      >
        <Text>
          {scheduled
            ? 'این ارسال انجام نخواهد شد و مبلغ آن به کیف پول شما بازمی‌گردد. ادامه می‌دهید؟'
            : 'پیامک‌هایی که هنوز ارسال نشده‌اند ارسال نخواهند شد و هزینه آن‌ها به کیف پول شما بازمی‌گردد. ادامه می‌دهید؟'}
        </Text>
      </Modal>
    </>
  )
}
