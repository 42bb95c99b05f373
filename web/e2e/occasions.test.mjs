// Occasion messages («پیام مناسبتی») against the real stack: an occasion for a phonebook
// whose contact was born today (Jalali) previews that contact's own text and price, is
// saved, and «ارسال امروز» delivers it to the simulator personalised, to nobody else.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, SIM_URL, apiCall, apiToken, launch, openSignedIn, randomMobile, shot, toIntl } from './helpers.mjs'

let browser
let token
before(async () => {
  browser = await launch()
  token = await apiToken(DEMO.username, DEMO.password)
})
after(async () => { await browser?.close() })

/** Opens `path` signed in as demo. */
const open = (path, opts) => openSignedIn(browser, token, path, opts)

const persianMD = new Intl.DateTimeFormat('en-u-ca-persian-nu-latn', { timeZone: 'Asia/Tehran', month: 'numeric', day: 'numeric' })
const md = (date) => persianMD.format(date)

/** A birth date (YYYY-MM-DD) in 1985–1999 whose Jalali month and day are those of `day`. */
function bornOn(day) {
  const want = md(day)
  for (let d = new Date(Date.UTC(1985, 0, 1, 12)); d.getUTCFullYear() < 2000; d.setUTCDate(d.getUTCDate() + 1)) {
    if (md(d) === want) return d.toISOString().slice(0, 10)
  }
  throw new Error(`no birth date falls on ${want}`)
}

/** What the simulator delivered to `local` (09…), [] when nothing. */
async function delivered(local) {
  const res = await fetch(`${SIM_URL}/messages?to=${toIntl(local)}`).catch(() => null)
  if (!res?.ok) throw new Error(`the simulator's messages to ${local}: ${res?.status}`)
  return (await res.json()).messages
}

/** Waits for the simulator to deliver a message to `local` and returns its text. */
async function textTo(local, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const res = await fetch(`${SIM_URL}/messages/latest?to=${toIntl(local)}`).catch(() => null)
    const body = res?.ok ? await res.json().catch(() => null) : null
    const msg = body?.data ?? body
    if (msg?.text) return String(msg.text)
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`nothing reached ${local} at the simulator`)
}

test('an occasion previews a birthday contact of today personalised and «ارسال امروز» delivers it', { timeout: 300_000 }, async () => {
  const now = new Date()
  const later = new Date(now.getTime() + 40 * 86_400_000)
  const name = `تولد ${Date.now() % 100000}`
  const book = await apiCall('POST', '/phonebooks', { name }, token)
  const today = randomMobile()
  const other = randomMobile()
  await apiCall('POST', '/phonebooks/numbers/add-list-new', { phonebook_id: book.id, contacts: [
    { number: today, name: 'سارا', gender: 'female', birth_date: bornOn(now) },
    { number: other, name: 'نیما', gender: 'male', birth_date: bornOn(later) },
  ] }, token)
  // The server reads the same day: one contact today.
  const up = await apiCall('POST', '/send/occasions/upcoming', { phonebook_ids: [book.id], occasion: { field: 'birth_date' } }, token)
  assert.equal(up.days[0].contacts, 1, JSON.stringify(up))

  const { context, page } = await open('/send-sms/occasions')
  await page.getByTestId('occasion-new').click()
  const form = page.getByTestId('occasion-form')
  await form.waitFor()
  const title = `تبریک تولد ${Date.now() % 100000}`
  await page.getByTestId('occasion-title').fill(title)
  await page.getByTestId('phonebooks').getByRole('combobox').click()
  await page.getByRole('option', { name }).click()
  await page.getByTestId('occasion-title').click() // closes the list (Escape would close the form)
  await form.getByRole('combobox', { name: 'خط ارسال' }).click()
  await page.getByRole('option', { name: /۵۰۰۰۱۲۳۴۵/ }).click()
  // An unknown tag is refused before saving.
  const editor = form.getByRole('textbox', { name: 'متن پیامک' })
  await editor.fill('{title} {nmae} عزیز')
  await page.getByTestId('occasion-save').click()
  await form.getByText('برچسب «{nmae}» در دفترچه تلفن تعریف نشده است', { exact: false }).first().waitFor()
  await editor.fill('{title} {name} عزیز، زادروزتان خجسته باد')
  const want = 'خانم سارا عزیز، زادروزتان خجسته باد'
  await form.getByTestId('preview-text').filter({ hasText: want }).waitFor()
  assert.match(await page.getByTestId('occasion-next').textContent(), /به ۱ مخاطب/)
  assert.match(await page.getByTestId('occasion-price').textContent(), /برای ۱ گیرنده/)
  await page.getByTestId('occasion-preview').scrollIntoViewIfNeeded()
  await shot(page, 'occasions-form')
  await page.getByTestId('occasion-save').click()
  const row = page.getByRole('row', { name: new RegExp(title) })
  await row.waitFor()
  assert.match(await row.textContent(), /تاریخ تولد · در روز مناسبت · هر روز ساعت ۰۹:۰۰/)
  await shot(page, 'occasions-list')

  const list = await apiCall('GET', '/send/campaigns?page=1&limit=50&kind=occasion', undefined, token)
  const created = list.find((c) => c.title === title)
  assert.ok(created?.enabled && created.next_run_at && created.occasion?.field === 'birth_date', JSON.stringify(created))
  await page.getByTestId(`occasion-today-${created.id}`).click()
  await page.getByTestId('occasion-today-confirm').click()
  assert.equal(await textTo(today), want)
  assert.deepEqual(await delivered(other), [], 'the contact without a birthday today received nothing')
  // The list says what the last run sent; a second «ارسال امروز» is refused.
  await page.waitForFunction(async ({ api, t, id }) => {
    const res = await fetch(`${api}/send/campaigns?page=1&limit=50&kind=occasion`, { headers: { Authorization: `Bearer ${t}` } })
    const c = (await res.json()).data.find((x) => x.id === id)
    return c?.last_run?.send_status === 'done' && c.last_run.recipients === 1
  }, { api: `${PANEL_URL}/v1/api`, t: token, id: created.id }, { timeout: 90_000, polling: 500 })
  await page.reload()
  await page.getByTestId(`occasion-last-${created.id}`).filter({ hasText: 'ارسال به ۱ مخاطب' }).waitFor()
  await page.getByTestId(`occasion-today-${created.id}`).click()
  await page.getByTestId('occasion-today-confirm').click()
  await page.getByText('پیام‌های مناسبتی امروز این کمپین پیش‌تر فرستاده شده است').waitFor()
  await shot(page, 'occasions-sent-today')
  await page.keyboard.press('Escape')
  await context.close()

  // Dark theme and a phone: the list as cards, the form full width.
  const dark = await open('/send-sms/occasions', { dark: true })
  await dark.page.getByRole('row', { name: new RegExp(title) }).waitFor()
  await shot(dark.page, 'occasions-dark')
  await dark.page.getByTestId(`occasion-edit-${created.id}`).click()
  await dark.page.getByTestId('occasion-preview').waitFor()
  await dark.page.getByTestId('occasion-week').waitFor()
  await shot(dark.page, 'occasions-form-dark')
  await dark.context.close()
  const phone = await open('/send-sms/occasions', { viewport: MOBILE })
  await phone.page.getByTestId(`occasion-today-${created.id}`).waitFor()
  await shot(phone.page, 'occasions-mobile')
  await phone.page.getByTestId(`occasion-edit-${created.id}`).click()
  await phone.page.getByTestId('preview-text').first().waitFor()
  await phone.page.getByTestId('occasion-preview').scrollIntoViewIfNeeded()
  await shot(phone.page, 'occasions-form-mobile')
  await phone.context.close()
})
