import { Button, type ButtonProps } from '@chakra-ui/react'
import { useState } from 'react'
import { errorText } from '../../lib/api'
import { toaster } from '../../lib/toaster'
import { downloadInvoice } from './api'

interface Props extends Omit<ButtonProps, 'onClick'> {
  paymentId: number
}

/** «فاکتور»: downloads the PDF invoice of a paid online payment; errors become a toast. */
export function InvoiceButton({ paymentId, children, ...rest }: Props) {
  const [busy, setBusy] = useState(false)
  const run = async () => {
    setBusy(true)
    try {
      await downloadInvoice(paymentId)
    } catch (err) {
      toaster.create({ type: 'error', description: errorText(err) })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="outline" size="xs" onClick={run} loading={busy} data-testid="invoice-download" {...rest}>
      {children ?? 'فاکتور'}
    </Button>
  )
}
