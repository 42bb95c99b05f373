import { Badge, Box, Button, Card, HStack, Heading, Input, Stack, Table, Text, Wrap } from '@chakra-ui/react'
import { useMemo, useState } from 'react'
import { Link as RouterLink } from 'react-router'
import { EmptyState, ErrorState, LoadingState } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { useApiDocs, useDocsAccount } from './api'
import { CodeBlock } from './CodeBlock'
import { LibrariesCard } from './LibrariesCard'
import { LANGS, example, groupOperations, type DocsAccount, type Lang, type Operation } from './docsModel'

const METHOD_COLOR: Record<string, string> = { GET: 'blue', POST: 'green', PUT: 'orange', DELETE: 'red' }

/** /developers/documents: the public API reference, rendered from the OpenAPI document, grouped by tag, searchable by route. */
export default function DocumentsPage() {
  const q = useApiDocs()
  const [filter, setFilter] = useState('')
  const [lang, setLang] = useState<Lang>('php')
  const groups = useMemo(() => (q.data ? groupOperations(q.data, filter) : []), [q.data, filter])
  const base = window.location.origin
  const acct = useDocsAccount()
  return (
    <Stack gap="4">
      <Card.Root variant="outline" rounded="xl">
        <Card.Body gap="3">
          <Heading size="md">مستندات API</Heading>
          {q.data?.info.description && <Text fontSize="sm" color="fg.muted">{q.data.info.description}</Text>}
          <Wrap gap="2" align="center">
            <Input
              maxW="sm"
              size="sm"
              placeholder="جستجوی مسیر یا عنوان (مثلاً send)"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              data-testid="docs-filter"
            />
            <HStack gap="1" wrap="wrap" role="tablist" aria-label="زبان نمونه کد">
              {LANGS.map((l) => (
                <Button
                  key={l.key}
                  size="xs"
                  role="tab"
                  aria-selected={lang === l.key}
                  variant={lang === l.key ? 'solid' : 'outline'}
                  colorPalette="brand"
                  onClick={() => setLang(l.key)}
                  data-testid={`docs-lang-${l.key}`}
                >
                  {l.title}
                </Button>
              ))}
            </HStack>
            <Button asChild size="xs" variant="ghost">
              <a href="/v1/api/openapi.json" target="_blank" rel="noreferrer">دریافت openapi.json</a>
            </Button>
          </Wrap>
          <Text fontSize="xs" color="fg.muted" data-testid="webhook-signature-note">
            وب‌هوک‌ها با HMAC-SHA256 روی «timestamp.body» امضا می‌شوند و امضا در سرآیند X-Chapar-Signature (v1=…) کنار
            X-Chapar-Timestamp می‌آید؛ نشانی‌ها، رویدادها و رمز امضا را در{' '}
            <Box as="span" color="colorPalette.fg" colorPalette="teal" textDecoration="underline">
              <RouterLink to="/developers/webhooks">صفحهٔ وب‌هوک‌ها</RouterLink>
            </Box>{' '}
            تنظیم کنید.
          </Text>
        </Card.Body>
      </Card.Root>
      <LibrariesCard lang={lang} base={base} acct={acct} />
      {q.isPending && <LoadingState />}
      {q.isError && <ErrorState onRetry={() => void q.refetch()} />}
      {q.data && groups.length === 0 && <EmptyState title="مسیری با این جستجو یافت نشد" />}
      {groups.map((g) => (
        <Stack key={g.tag} gap="3" data-testid={`docs-tag-${g.tag}`}>
          <Heading size="sm">{g.title}</Heading>
          {g.operations.map((o) => (
            <OperationCard key={o.id} o={o} lang={lang} base={base} acct={acct} />
          ))}
        </Stack>
      ))}
    </Stack>
  )
}

function OperationCard({ o, lang, base, acct }: { o: Operation; lang: Lang; base: string; acct: DocsAccount }) {
  const codes = Object.keys(o.op.responses ?? {})
  return (
    <Card.Root variant="outline" rounded="xl" data-testid={`docs-op-${o.id}`}>
      <Card.Body gap="3">
        <Wrap gap="2" align="center">
          <Badge colorPalette={METHOD_COLOR[o.method] ?? 'gray'} variant="solid" fontFamily="mono">{o.method}</Badge>
          <bdi dir="ltr"><Text as="span" fontFamily="mono" fontSize="sm" fontWeight="medium">/v1/api{o.path}</Text></bdi>
          <Text fontSize="sm">{o.op.summary}</Text>
        </Wrap>
        {o.op.description && <Text fontSize="sm" color="fg.muted">{o.op.description}</Text>}
        {o.params.length > 0 && (
          <Box overflowX="auto">
            <Table.Root size="sm" variant="outline">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>پارامتر</Table.ColumnHeader>
                  <Table.ColumnHeader>محل</Table.ColumnHeader>
                  <Table.ColumnHeader>توضیح</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {o.params.map((p) => (
                  <Table.Row key={`${p.in}-${p.name}`}>
                    <Table.Cell><bdi dir="ltr"><Text as="span" fontFamily="mono" fontSize="xs">{p.name}</Text></bdi>{p.required && ' *'}</Table.Cell>
                    <Table.Cell>{p.in === 'query' ? 'کوئری' : p.in === 'header' ? 'سرآیند' : 'مسیر'}</Table.Cell>
                    <Table.Cell>{p.description}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
        <CodeBlock code={example(lang, base, o, acct)} testId={`docs-example-${o.id}`} />
        <Wrap gap="1">
          <Text fontSize="xs" color="fg.muted">پاسخ‌ها:</Text>
          {codes.map((c) => (
            <Badge key={c} size="sm" variant="subtle" colorPalette={c.startsWith('2') ? 'green' : 'red'}>{toPersianDigits(c)}</Badge>
          ))}
        </Wrap>
      </Card.Body>
    </Card.Root>
  )
}
