import { Button, HStack, Input, Stack } from '@chakra-ui/react'
import { useRef, useState } from 'react'
import { Select } from '../../components/Select'
import type { SelectOption } from '../../components/selectUtils'
import { PlusIcon } from '../../components/outlineIcons'
import { useCreateTag, usePhonebookOptions, useTags } from './api'
import { toastError } from './ui'

interface GroupSelectBase {
  /** Labels already known for chosen values (e.g. the contact's current group). */
  known?: SelectOption[]
  id?: string
  invalid?: boolean
  'aria-label'?: string
  size?: 'sm' | 'md'
}

/**
 * Phonebook options searched on the server, and the labels of chosen values: every option seen
 * is remembered, so a choice keeps its label after the search changes.
 */
function useGroupOptions(known: SelectOption[] = []) {
  const [search, setSearch] = useState('')
  const options = usePhonebookOptions(search)
  const seen = useRef(new Map<string, string>())
  for (const o of [...known, ...(options.data ?? [])]) seen.current.set(o.value, o.label)
  return {
    searchable: true,
    onSearchChange: setSearch,
    options: options.data ?? [],
    isLoading: options.isFetching,
    labelsOf: (values: string[]) => values.map((v) => ({ value: v, label: seen.current.get(v) ?? v })),
  }
}

/** One phonebook (value = id as a string). */
export function GroupSelect({ value, onChange, known, ...rest }: GroupSelectBase & { value: string | null; onChange: (v: string | null) => void }) {
  const { labelsOf, ...select } = useGroupOptions(known)
  return <Select {...rest} {...select} selectedOptions={labelsOf(value ? [value] : [])} value={value} onChange={(v) => onChange(v)} />
}

/** Several phonebooks (ids as strings). */
export function GroupMultiSelect({ value, onChange, known, ...rest }: GroupSelectBase & { value: string[]; onChange: (v: string[]) => void }) {
  const { labelsOf, ...select } = useGroupOptions(known)
  return <Select {...rest} {...select} multiple selectedOptions={labelsOf(value)} value={value} onChange={(v) => onChange(v)} />
}

/** Tags by name: pick existing ones (server search) or create a new one, which is then chosen. */
export function TagPicker({ value, onChange, id }: { value: string[]; onChange: (v: string[]) => void; id?: string }) {
  const [search, setSearch] = useState('')
  const [draft, setDraft] = useState('')
  const tags = useTags(search)
  const create = useCreateTag()
  const options = (tags.data ?? []).map((t) => ({ value: t.name, label: t.name }))
  const add = () => {
    const name = draft.trim()
    if (!name) return
    const choose = () => {
      if (!value.includes(name)) onChange([...value, name])
      setDraft('')
    }
    if (options.some((o) => o.value === name)) return choose()
    create.mutate(name, { onSuccess: choose, onError: toastError })
  }
  return (
    <Stack gap="2" w="full">
      <Select
        id={id}
        multiple
        searchable
        onSearchChange={setSearch}
        options={options}
        isLoading={tags.isFetching}
        selectedOptions={value.map((v) => ({ value: v, label: v }))}
        value={value}
        onChange={(v) => onChange(v)}
        placeholder="برچسب‌ها را انتخاب کنید"
        aria-label="برچسب‌ها"
      />
      <HStack gap="2">
        <Input
          size="sm"
          value={draft}
          placeholder="برچسب جدید"
          aria-label="برچسب جدید"
          maxLength={50}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              add()
            }
          }}
          data-testid="new-tag"
        />
        <Button size="sm" variant="outline" onClick={add} loading={create.isPending} disabled={!draft.trim()} flexShrink={0}>
          <PlusIcon /> ساخت برچسب
        </Button>
      </HStack>
    </Stack>
  )
}
