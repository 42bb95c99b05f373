import { ExportButton as DownloadButton } from '../../components/ExportButton'
import type { Query } from '../../lib/api'
import { exportAuditLog } from './api'

/** Downloads the filtered log as Excel, showing what has arrived so far. */
export function ExportButton({ filters }: { filters: Query }) {
  return <DownloadButton testId="audit-export" download={(onProgress) => exportAuditLog(filters, onProgress)} />
}
