import { Badge, HStack, Stack, Table, Text } from '@chakra-ui/react'
import type { UserFile } from '../../../lib/files'
import { MiniTable } from '../../../components/MiniTable'

/** The file's columns with their tags and header titles, so the user knows what `{ex_B}` holds. */
export function KeywordColumns({ file }: { file: UserFile }) {
  return (
    <Stack gap="2" data-testid="keyword-columns">
      <Text fontSize="sm" color="app.muted">
        با دکمه‌های بالا برچسب هر ستون را در متن قرار دهید؛ هنگام ارسال، هر برچسب با مقدار همان ستون در ردیف گیرنده جایگزین می‌شود.
      </Text>
      <MiniTable caption="ستون‌های فایل" maxW="lg" columns={[{ title: 'برچسب' }, { title: 'عنوان ستون' }]}>
        {file.columns.map((c) => (
          <Table.Row key={c.key}>
            <Table.Cell>
              <Text as="code" dir="ltr" fontFamily="mono" fontSize="sm">{`{ex_${c.key}}`}</Text>
            </Table.Cell>
            <Table.Cell>
              <HStack gap="2">
                <Text as="span">{c.title || `ستون ${c.key}`}</Text>
                {c.index === file.mobile_col && (
                  <Badge size="sm" colorPalette="brand" variant="subtle">
                    شماره موبایل
                  </Badge>
                )}
              </HStack>
            </Table.Cell>
          </Table.Row>
        ))}
      </MiniTable>
    </Stack>
  )
}
