import { Button, Checkbox, Field, Heading, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { Drawer } from '../../components/Overlays'
import { ErrorState, LoadingState, StaleNote } from '../../components/States'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { formatRial } from '../../lib/format'
import { AccountLines } from './AccountLines'
import { adminApi, useAdminMutation, useTariffs, type AdminAccount, type Tariff } from './api'

const OPERATORS: Record<string, string> = { mci: 'همراه اول', irancell: 'ایرانسل', rightel: 'رایتل', other: 'سایر' }

/** An account's sender lines and tariffs, edited by staff. */
export function AccountDrawer({ account, onClose }: { account: AdminAccount; onClose: () => void }) {
  return (
    <Drawer open onClose={onClose} title={`${account.name} (${toPersianDigits(account.id)})`}>
      <Stack gap="8">
        <LineForm account={account} />
        <AccountLines account={account} />
        <Tariffs account={account} />
      </Stack>
    </Drawer>
  )
}

function LineForm({ account }: { account: AdminAccount }) {
  const [number, setNumber] = useState('')
  const [kind, setKind] = useState<'advertising' | 'service'>('service')
  const [isDefault, setDefault] = useState(false)
  const add = useAdminMutation(() => adminApi.assignLine(account.id, { number: toLatinDigits(number), kind, default: isDefault }))
  const err = (f: string) => (add.error instanceof ApiError ? add.error.fieldError(f) : undefined)
  return (
    <Stack gap="3">
      <Heading size="sm">اختصاص خط ارسال</Heading>
      <Field.Root invalid={!!err('number')}>
        <Field.Label>شماره خط</Field.Label>
        <Input value={number} onChange={(e) => setNumber(e.target.value)} dir="ltr" inputMode="numeric" />
        <Field.ErrorText>{err('number')}</Field.ErrorText>
      </Field.Root>
      <Field.Root>
        <Field.Label>نوع خط</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
            <option value="service">خدماتی</option>
            <option value="advertising">تبلیغاتی</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      <Checkbox.Root checked={isDefault} onCheckedChange={(e) => setDefault(!!e.checked)}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>خط پیش‌فرض حساب</Checkbox.Label>
      </Checkbox.Root>
      {add.isSuccess && <Text fontSize="sm" color="fg.success">خط اختصاص داده شد.</Text>}
      <Button alignSelf="flex-start" colorPalette="brand" loading={add.isPending} onClick={() => add.mutate(undefined)}>اختصاص خط</Button>
    </Stack>
  )
}

function Tariffs({ account }: { account: AdminAccount }) {
  const { data, isPending, isError, refetch } = useTariffs(account.id)
  return (
    <Stack gap="3">
      <Heading size="sm">تعرفه‌های حساب</Heading>
      {isError && data && <StaleNote />}
      {isPending ? <LoadingState /> : !data ? <ErrorState onRetry={() => refetch()} /> : (
        <Table.Root size="sm">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>اپراتور</Table.ColumnHeader>
              <Table.ColumnHeader>قیمت هر بخش (ریال)</Table.ColumnHeader>
              <Table.ColumnHeader />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.map((t) => <TariffRow key={t.operator} accountId={account.id} tariff={t} />)}
          </Table.Body>
        </Table.Root>
      )}
    </Stack>
  )
}

function TariffRow({ accountId, tariff }: { accountId: number; tariff: Tariff }) {
  const [price, setPrice] = useState(toPersianDigits(tariff.part_price))
  const save = useAdminMutation(() => adminApi.setTariff(accountId, { ...tariff, part_price: Number(toLatinDigits(price)) }))
  return (
    <Table.Row>
      <Table.Cell>{OPERATORS[tariff.operator] ?? tariff.operator}{tariff.own ? ' (اختصاصی)' : ''}</Table.Cell>
      <Table.Cell>
        <Input size="sm" maxW="28" value={price} onChange={(e) => setPrice(e.target.value)} dir="ltr" inputMode="numeric"
          aria-label={`قیمت ${OPERATORS[tariff.operator] ?? tariff.operator}، اکنون ${formatRial(tariff.part_price)}`} />
      </Table.Cell>
      <Table.Cell>
        <HStack><Button size="xs" variant="outline" loading={save.isPending} onClick={() => save.mutate(undefined)}>ذخیره</Button></HStack>
      </Table.Cell>
    </Table.Row>
  )
}
