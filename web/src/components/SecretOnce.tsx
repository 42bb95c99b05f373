import { Alert, Button, HStack, Input, Stack } from '@chakra-ui/react'
import { toaster } from '../lib/toaster'

interface Props {
  /** The secret to show this once. */
  secret: string
  /** What it is, for the toasts and the done button («کلید», «رمز امضا»). */
  noun: string
  onDone: () => void
  /** Prefix of the data-testids (e.g. "apikey" gives apikey-secret, apikey-copy, apikey-done). */
  testId: string
}

/** A secret shown once (an API key, a webhook's signing secret), with a copy button. */
export function SecretOnce({ secret, noun, onDone, testId }: Props) {
  const copy = () =>
    navigator.clipboard
      .writeText(secret)
      .then(() => toaster.create({ type: 'success', title: `${noun} کپی شد` }))
      .catch(() => toaster.create({ type: 'error', title: `کپی نشد؛ ${noun} را دستی انتخاب کنید` }))
  return (
    <Stack gap="4">
      <Alert.Root status="warning" rounded="lg">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Description>این {noun} فقط همین یک بار نمایش داده می‌شود؛ آن را در جای امنی نگه دارید.</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Input readOnly value={secret} dir="ltr" fontFamily="mono" fontSize="sm" onFocus={(e) => e.target.select()} data-testid={`${testId}-secret`} />
      <HStack justify="flex-end" gap="2">
        <Button variant="outline" onClick={copy} data-testid={`${testId}-copy`}>کپی {noun}</Button>
        <Button colorPalette="brand" onClick={onDone} data-testid={`${testId}-done`}>{noun} را برداشتم</Button>
      </HStack>
    </Stack>
  )
}
