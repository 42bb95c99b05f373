import { Button, Checkbox, Field, HStack, Input, Stack, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { Modal } from '../../components/Overlays'
import { ErrorState, LoadingState, StaleNote } from '../../components/States'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { adminApi, useAdminMutation, useModeration, type ModerationRules } from './api'

/** The send moderation rules: sensitive words (one per line), links, a new account's first sends. */
export function ModerationDialog({ onClose }: { onClose: () => void }) {
  const { data, isPending, isError, refetch } = useModeration(true)
  return (
    <Modal open onClose={onClose} title="قوانین بررسی ارسال" closeOnInteractOutside={false} size="lg">
      {isPending ? <LoadingState /> : !data ? <ErrorState onRetry={() => refetch()} /> : (
        <>
          {isError && <StaleNote mb="3" />}
          <RulesForm rules={data} onClose={onClose} />
        </>
      )}
    </Modal>
  )
}

function RulesForm({ rules, onClose }: { rules: ModerationRules; onClose: () => void }) {
  const [words, setWords] = useState(rules.words.join('\n'))
  const [links, setLinks] = useState(rules.links)
  const [sends, setSends] = useState(toPersianDigits(rules.new_account_sends))
  const [size, setSize] = useState(toPersianDigits(rules.new_account_size))
  const save = useAdminMutation(adminApi.saveModeration)
  const err = (f: string) => (save.error instanceof ApiError ? save.error.fieldError(f) : undefined)
  const submit = () =>
    save.mutate({
      words: words.split('\n'), links,
      new_account_sends: Number(toLatinDigits(sends)) || 0, new_account_size: Number(toLatinDigits(size)) || 0,
    }, { onSuccess: onClose })
  return (
    <Stack gap="4">
      <Field.Root invalid={!!err('words')}>
        <Field.Label>واژه‌های حساس (هر خط یک واژه)</Field.Label>
        <Textarea value={words} onChange={(e) => setWords(e.target.value)} rows={6} data-testid="moderation-words" />
        <Field.ErrorText>{err('words')}</Field.ErrorText>
      </Field.Root>
      <Checkbox.Root checked={links} onCheckedChange={(e) => setLinks(!!e.checked)}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>پیام‌های دارای پیوند بررسی شوند</Checkbox.Label>
      </Checkbox.Root>
      <HStack gap="3" align="flex-start" wrap="wrap">
        <Field.Root invalid={!!err('new_account_sends')} maxW="56">
          <Field.Label>تعداد نخستین ارسال‌های حساب جدید</Field.Label>
          <Input value={sends} onChange={(e) => setSends(e.target.value)} dir="ltr" inputMode="numeric" />
          <Field.HelperText>۰: غیرفعال</Field.HelperText>
          <Field.ErrorText>{err('new_account_sends')}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!err('new_account_size')} maxW="56">
          <Field.Label>با بیش از این تعداد گیرنده</Field.Label>
          <Input value={size} onChange={(e) => setSize(e.target.value)} dir="ltr" inputMode="numeric" />
          <Field.ErrorText>{err('new_account_size')}</Field.ErrorText>
        </Field.Root>
      </HStack>
      <HStack justify="flex-end" gap="2">
        <Button variant="outline" onClick={onClose}>انصراف</Button>
        <Button colorPalette="brand" loading={save.isPending} onClick={submit} data-testid="moderation-save">ذخیره</Button>
      </HStack>
    </Stack>
  )
}
