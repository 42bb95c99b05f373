import { Badge, Button, Card, HStack, Heading, List, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react'
import { EmptyState, ErrorState, LoadingState } from '../../components/States'
import { useDocsAccount, usePlugins, type Plugin } from './api'
import { CodeBlock } from './CodeBlock'
import { ownExamplePath, ownLine, type DocsAccount } from './docsModel'

/** /developers/plugins: the integrations catalogue with instructions and settings (GET /panel/plugins). */
export default function PluginsPage() {
  const q = usePlugins()
  const acct = useDocsAccount()
  return (
    <Stack gap="4">
      <Card.Root variant="outline" rounded="xl">
        <Card.Body gap="1">
          <Heading size="md">افزونه‌ها و اتصال‌ها</Heading>
          <Text fontSize="sm" color="fg.muted">
            راه‌های آماده اتصال فروشگاه، نرم‌افزار و دستگاه‌های شما به چاپار. برای هرکدام یک کلید API جدا با کمترین دسترسی لازم بسازید.
          </Text>
        </Card.Body>
      </Card.Root>
      {q.isPending && <LoadingState />}
      {q.isError && <ErrorState onRetry={() => void q.refetch()} />}
      {q.data && q.data.length === 0 && <EmptyState title="افزونه‌ای نیست" />}
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        {q.data?.map((p) => <PluginCard key={p.id} p={p} acct={acct} />)}
      </SimpleGrid>
    </Stack>
  )
}

/** One integration: its steps, its settings and a working example, filled with the reader's own line and key prefix. */
function PluginCard({ p, acct }: { p: Plugin; acct: DocsAccount }) {
  const url = p.example ? `${window.location.origin}${ownExamplePath(p.example, acct)}` : ''
  return (
    <Card.Root variant="outline" rounded="xl" data-testid={`plugin-${p.id}`}>
      <Card.Body gap="3">
        <HStack justify="space-between" align="flex-start" gap="2">
          <Heading size="sm">{p.title}</Heading>
          <Badge colorPalette={p.status === 'ready' ? 'green' : 'gray'} variant="subtle" flexShrink={0}>
            {p.status === 'ready' ? 'آماده استفاده' : 'راهنمای راه‌اندازی'}
          </Badge>
        </HStack>
        <Text fontSize="sm" color="fg.muted">{p.summary}</Text>
        <List.Root as="ol" gap="1" ps="5" fontSize="sm">
          {p.steps.map((s) => <List.Item key={s}>{s}</List.Item>)}
        </List.Root>
        <Table.Root size="sm" variant="outline">
          <Table.Body>
            {p.settings.map((s) => (
              <Table.Row key={s.name}>
                <Table.Cell><bdi dir="ltr"><Text as="span" fontFamily="mono" fontSize="xs">{s.name}</Text></bdi></Table.Cell>
                <Table.Cell fontSize="sm">{s.title}</Table.Cell>
                <Table.Cell><bdi dir="ltr"><Text as="span" fontFamily="mono" fontSize="xs">{ownLine(s.example, acct)}</Text></bdi></Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        {url && <CodeBlock code={url} testId={`plugin-${p.id}-url`} />}
        {p.download && (
          <HStack>
            <Button asChild size="sm" colorPalette="brand" data-testid={`plugin-${p.id}-download`}>
              <a href={p.download} download>بارگیری افزونه (zip)</a>
            </Button>
          </HStack>
        )}
      </Card.Body>
    </Card.Root>
  )
}
