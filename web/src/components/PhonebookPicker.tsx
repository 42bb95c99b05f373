import { Field, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useId, useState } from 'react'
import { Select } from './Select'
import type { SelectOption } from './selectUtils'
import { ErrorState } from './States'
import { formatNumber } from '../lib/format'
import { Fact } from './Fact'
import { phonebookRecipients, usePhonebookCount, usePhonebookOptions } from '../lib/phonebooks'

interface Props {
  value: Array<number | string>
  selected: SelectOption<number>[]
  onChange: (ids: number[], options: SelectOption<number>[]) => void
  error?: string
}

/** Multi-select of phonebooks with the counts of the chosen ones. */
export function PhonebookPicker({ value, selected, onChange, error }: Props) {
  const id = useId()
  const [search, setSearch] = useState('')
  const options = usePhonebookOptions(search)
  const count = usePhonebookCount(value)
  return (
    <Stack gap="4">
      <Field.Root invalid={!!error}>
        <Field.Label id={`${id}-label`}>دفترچه‌های تلفن</Field.Label>
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
