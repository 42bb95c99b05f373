import { Button } from '@chakra-ui/react'
import { useState } from 'react'
import { FileIcon } from '../../components/outlineIcons'
import { ContactsTable } from './ContactsTable'
import { ImportWizard } from './ImportWizard'

/** «همه مخاطبین»: every phonebook's contacts, with the import wizard at hand. */
export function AllContactsTab() {
  const [importing, setImporting] = useState(false)
  return (
    <>
      <ContactsTable
        extraActions={
          <Button size="sm" variant="outline" onClick={() => setImporting(true)} data-testid="contacts-import">
            <FileIcon /> ورود از فایل
          </Button>
        }
      />
      <ImportWizard open={importing} onClose={() => setImporting(false)} />
    </>
  )
}
