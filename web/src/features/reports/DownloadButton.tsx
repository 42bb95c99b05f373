import { Button } from '@chakra-ui/react'
import { useState } from 'react'
import { DownloadIcon } from '../../components/outlineIcons'
import { toaster } from '../../lib/toaster'
import { ServerMessage } from '../../components/ServerMessage'
import { downloadRecipients } from '../../lib/reports'

/** Downloads the recipients as Excel (GET /report/download_recipients with the auth header). */
export function DownloadButton({ id }: { id: string }) {
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    try {
      await downloadRecipients(id)
    } catch (err) {
      toaster.create({ type: 'error', description: <ServerMessage error={err} /> })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="outline" size="sm" onClick={run} loading={busy} data-testid="download-recipients">
      <DownloadIcon /> دریافت فایل اکسل
    </Button>
  )
}
