import { Badge, Heading, NativeSelect, Stack, Table, Text } from '@chakra-ui/react'
import { ErrorState, LoadingState } from '../../components/States'
import { ServerMessage } from '../../components/ServerMessage'
import { toPersianDigits } from '../../lib/digits'
import { useAdminMutation, type AdminAccount } from './api'
import { LINE_KINDS, sendHoursApi, useAccountLines, type AdminLine } from './sendHoursApi'

/** An account's lines with their kinds, which staff change here (the sending rules read a line's kind). */
export function AccountLines({ account }: { account: AdminAccount }) {
  const { data, isPending, refetch } = useAccountLines(account.id)
  const setKind = useAdminMutation((x: { line: AdminLine; kind: string }) => sendHoursApi.setKind(account.id, { line_id: x.line.id, kind: x.kind }), { silent: true })
  return (
    <Stack gap="3">
      <Heading size="sm">خطوط ارسال و نوع آن‌ها</Heading>
      <Text fontSize="xs" color="app.muted">خط تبلیغاتی فقط در ساعت مجاز ارسال می‌کند؛ خط خدماتی همیشه.</Text>
      {isPending ? <LoadingState /> : !data ? <ErrorState onRetry={() => refetch()} /> : data.length === 0 ? (
        <Text fontSize="sm" color="app.muted">این حساب خطی ندارد.</Text>
      ) : (
        <Table.Root size="sm">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>شماره خط</Table.ColumnHeader>
              <Table.ColumnHeader>نوع خط</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {data.map((l) => (
              <Table.Row key={l.id}>
                <Table.Cell>
                  <bdi>{toPersianDigits(l.number)}</bdi> {l.is_default && <Badge size="sm">پیش‌فرض</Badge>}
                </Table.Cell>
                <Table.Cell>
                  <NativeSelect.Root size="sm" disabled={setKind.isPending}>
                    <NativeSelect.Field value={l.kind} aria-label={`نوع خط ${toPersianDigits(l.number)}`} data-testid={`line-kind-${l.number}`}
                      onChange={(e) => setKind.mutate({ line: l, kind: e.target.value })}>
                      {Object.entries({ ...LINE_KINDS, ...(LINE_KINDS[l.kind] ? {} : { [l.kind]: l.kind }) }).map(([k, label]) => (
                        <option key={k} value={k}>{label}</option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      {setKind.isError && <ServerMessage error={setKind.error} color="fg.error" fontSize="sm" />}
    </Stack>
  )
}
