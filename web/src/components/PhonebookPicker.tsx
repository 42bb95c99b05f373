import { Button, Field, HStack, Input, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useId, useState, type FormEvent } from 'react'
import { useSelectAfterCreate } from './hooks'
import { Modal } from './Overlays'
import { ServerMessage } from './ServerMessage'
import { Select } from './Select'
import type { SelectOption } from './selectUtils'
import { ErrorState } from './States'
import { formatNumber } from '../lib/format'
import { Fact } from './Fact'
import { phonebookRecipients, useCreatePhonebookOption, usePhonebookCount, usePhonebookOptions } from '../lib/phonebooks'

interface Props {
  value: Array<number | string>
  selected: SelectOption<number>[]
  onChange: (ids: number[], options: SelectOption<number>[]) => void
  error?: string
}

/** «گروه جدید» from inside the picker: a name, then onCreated with the new phonebook. */
function NewPhonebookDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (o: SelectOption<number>) => void }) {
  const [name, setName] = useState('')
  const create = useCreatePhonebookOption()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!name.trim()) return
    create.mutate(name.trim(), { onSuccess: (p) => { onCreated({ label: p.name, value: p.id }); onClose() } })
  }
  return (
    <Modal open onClose={onClose} title="گروه جدید" size="sm">
      <form onSubmit={submit} noValidate>
        <Stack gap="3" pb="2">
          <Field.Root required>
            <Field.Label>نام گروه</Field.Label>
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} data-testid="new-phonebook-name" autoFocus />
          </Field.Root>
          {create.isError && <ServerMessage error={create.error} />}
          <Button type="submit" colorPalette="brand" loading={create.isPending} disabled={!name.trim()} alignSelf="end">ساخت گروه</Button>
        </Stack>
      </form>
    </Modal>
  )
}

/**
 * Multi-select of phonebooks with the counts of the chosen ones; a phonebook made with
 * «گروه جدید» is selected SELECT_AFTER_CREATE_MS after it is created (spec §9).
 */
export function PhonebookPicker({ value, selected, onChange, error }: Props) {
  const id = useId()
  const [search, setSearch] = useState('')
  const [creating, setCreating] = useState(false)
  const options = usePhonebookOptions(search)
  const count = usePhonebookCount(value)
  const selectCreated = useSelectAfterCreate((o: SelectOption<number>) => {
    if (!value.map(Number).includes(o.value)) onChange([...value.map(Number), o.value], [...selected, o])
  })
  return (
    <Stack gap="4">
      {creating && <NewPhonebookDialog onClose={() => setCreating(false)} onCreated={selectCreated} />}
      <Field.Root invalid={!!error}>
        <HStack justify="space-between" w="full">
          <Field.Label id={`${id}-label`}>دفترچه‌های تلفن</Field.Label>
          <Button size="2xs" variant="ghost" colorPalette="brand" onClick={() => setCreating(true)} data-testid="new-phonebook">گروه جدید</Button>
        </HStack>
        <Stack w="full" data-testid="phonebooks">
          <Select
            multiple
            searchable
            aria-labelledby={`${id}-label`}
            options={options.data ?? []}
            selectedOptions={selected}
            value={value.map(Number)}
            onChange={onChange}
            onSearchChange={setSearch}
            isLoading={options.isFetching}
            invalid={!!error}
            placeholder="دفترچه تلفن را انتخاب کنید"
          />
        </Stack>
        {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>می‌توانید چند دفترچه را با هم انتخاب کنید؛ شماره‌های تکراری یک بار ارسال می‌شوند.</Field.HelperText>}
      </Field.Root>
      {options.isError && <ErrorState py="4" onRetry={() => options.refetch()} />}
      {value.length > 0 &&
        (count.isPending ? (
          <Skeleton h="20" rounded="lg" />
        ) : count.isError ? (
          <ErrorState py="4" onRetry={() => count.refetch()} />
        ) : (
          <SimpleGrid columns={{ base: 2, md: 4 }} gap="3" data-testid="phonebook-count">
            <Fact label="کل شماره‌ها" value={formatNumber(count.data.count)} />
            <Fact label="شماره‌های یکتا" value={formatNumber(count.data.unique)} />
            <Fact label="لیست سیاه و لغو۱۱" value={formatNumber(count.data.blacklisted)} />
            <Fact label="قابل ارسال" value={formatNumber(phonebookRecipients(count.data))} testId="phonebook-recipients" />
          </SimpleGrid>
        ))}
      {value.length > 0 && !count.isPending && !count.isError && phonebookRecipients(count.data) === 0 && (
        <Text fontSize="sm" color="fg.error">
          دفترچه‌های انتخاب‌شده شماره قابل ارسالی ندارند.
        </Text>
      )}
    </Stack>
  )
}
