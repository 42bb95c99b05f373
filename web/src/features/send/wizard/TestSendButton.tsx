import { Button, Stack, Text } from '@chakra-ui/react'
import { useMutation } from '@tanstack/react-query'
import { PhoneIcon } from '../../../components/outlineIcons'
import { ServerMessage } from '../../../components/ServerMessage'
import { toPersianDigits } from '../../../lib/digits'
import { toaster } from '../../../lib/toaster'
import { sendApi, type BulkSendBody, type PriceQuote, type SendBody, type TargetedSendBody, type TestSendBody } from '../api'

/**
 * The test of a send about to be made: its text (a personalised send's first row as
 * the quote rendered it) from its line; null until both are chosen.
 */
export function testBodyOf(body: SendBody | BulkSendBody | TargetedSendBody, quote?: PriceQuote): TestSendBody | null {
  const text = quote?.preview?.[0]?.text ?? body.text ?? ''
  if (!text.trim() || !body.sender) return null
  return { text, line: body.sender, cancel11: body.cancel11 }
}

/**
 * «ارسال آزمایشی به موبایل خودم»: sends the text once to the signed-in user's own
 * verified mobile (POST /send/test, charged as one message, five per ten minutes).
 */
export function TestSendButton({ body }: { body: TestSendBody | null }) {
  const test = useMutation({
    mutationFn: (b: TestSendBody) => sendApi.test(b),
    onSuccess: (r) => toaster.create({ type: 'success', title: `پیامک آزمایشی به ${toPersianDigits(r.mobile)} فرستاده شد` }),
  })
  return (
    <Stack gap="1" align="start">
      <Button
        variant="outline"
        size="sm"
        onClick={() => body && test.mutate(body)}
        loading={test.isPending}
        loadingText="در حال ارسال آزمایشی"
        disabled={!body}
        data-testid="send-test"
      >
        <PhoneIcon /> ارسال آزمایشی به موبایل خودم
      </Button>
      {test.isError ? (
        <Text as="div" fontSize="xs" color="fg.error" data-testid="send-test-error">
          <ServerMessage error={test.error} />
        </Text>
      ) : (
        <Text fontSize="xs" color="app.muted">
          {test.isSuccess ? `فرستاده شد به ${toPersianDigits(test.data.mobile)}؛ هزینه یک پیامک کسر شد.` : 'همین متن یک بار به موبایل تأییدشده شما فرستاده می‌شود (هزینه یک پیامک).'}
        </Text>
      )}
    </Stack>
  )
}
