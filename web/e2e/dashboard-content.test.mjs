// Staff-edited content on the customer dashboard against the real stack: the seeded
// staff user adds a strip banner (popup on click), a carousel banner, a news item and
// a quick-access link in the back office; the demo customer's dashboard shows them
// (after the credit), the popup opens, the quick link navigates; a news item staff
// deactivate is gone on the next load. Then staff add and deactivate a staff user.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiToken, launch, openPage, randomDigits, randomMobile, signInWithToken, staffLogin, waitForPath } from './helpers.mjs'

let browser
before(async () => { browser = await launch() })
after(async () => { await browser?.close() })

const latinTag = randomDigits(4)
// Staff texts show with Persian digits on the dashboard: type them that way.
const tag = [...latinTag].map((d) => '۰۱۲۳۴۵۶۷۸۹'[d]).join('')
const T = { strip: `جشنواره پاییزه ${tag}`, slide: `بسته ویژه ${tag}`, slide2: `پیامک تخفیف‌دار ${tag}`, news: `خبر سامانه ${tag}`, quick: `شارژ سریع ${tag}` }

/** Adds one content item through the back office's dialog. */
async function addContent(page, tab, { title, body = '', link = '', choices = [] }) {
  await page.getByRole('tab', { name: tab }).click()
  await page.getByTestId('content-new').click()
  const dialog = page.getByRole('dialog')
  await page.getByTestId('content-title').fill(title)
  if (body) await dialog.locator('textarea').fill(body)
  if (link) await dialog.getByLabel(/پیوند/).fill(link)
  for (const c of choices) await dialog.getByRole('button', { name: c, exact: true }).click()
  await page.getByTestId('content-save').click()
  await dialog.waitFor({ state: 'detached' })
  await page.getByRole('cell', { name: title }).first().waitFor()
}

/** Polls the page until fn(text of the locator) holds. */
async function until(locator, fn, what) {
  for (let i = 0; i < 60; i++) {
    if (fn(await locator.innerText().catch(() => ''))) return
    await new Promise((r) => setTimeout(r, 250))
  }
  assert.fail(what)
}

/**
 * Drags the carousel with the mouse (spec §9: a drag starts after 15 px and changes
 * the slide past a tenth of the width): a short drag keeps the slide, a long one
 * changes it, and neither follows the slide's link.
 */
async function dragCarousel(p) {
  const carousel = p.getByTestId('banner-carousel')
  const box = await carousel.boundingBox()
  const y = box.y + 40
  const drag = async (dx) => {
    await p.mouse.move(box.x + box.width / 2, y)
    await p.mouse.down()
    await p.mouse.move(box.x + box.width / 2 + dx, y, { steps: 6 })
    await p.mouse.up()
  }
  await p.mouse.move(box.x + box.width / 2, y) // hovering pauses the autoplay
  const slide = () => p.getByTestId('banner-slide').innerText()
  const first = await slide()
  await drag(Math.min(40, box.width * 0.08))
  assert.equal(await slide(), first, 'a drag under a tenth of the width changed the slide')
  await drag(box.width * 0.25)
  await until(p.getByTestId('banner-slide'), (t) => t !== first, 'a long drag did not change the slide')
  await drag(-box.width * 0.25)
  await until(p.getByTestId('banner-slide'), (t) => t === first, 'a long drag back did not return')
  assert.equal(new URL(p.url()).pathname, '/dashboard', 'a drag followed the slide link')
}

test('staff edit the dashboard content and the customer sees it', { timeout: 180_000 }, async () => {
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  await staff.page.goto(`${PANEL_URL}/admin/content`)
  await addContent(staff.page, 'بنرها', { title: T.strip, body: `جزئیات جشنواره ${tag}`, choices: ['نوار باریک بالای پیشخوان', 'پنجره بازشو'] })
  await addContent(staff.page, 'بنرها', { title: T.slide, body: 'تا پایان هفته', link: '/wallet/credit', choices: ['پیوند در همین صفحه'] })
  await addContent(staff.page, 'بنرها', { title: T.slide2, body: 'فقط امروز', link: '/wallet/credit', choices: ['پیوند در همین صفحه'] })
  await addContent(staff.page, 'اخبار پیشخوان', { title: T.news, body: 'به‌روزرسانی شبانه ساعت ۲ انجام می‌شود' })
  await addContent(staff.page, 'دسترسی سریع', { title: T.quick, link: '/wallet/credit' })
  await staff.page.screenshot({ path: '/tmp/dashboard-admin-content.png' })

  const token = await apiToken(DEMO.username, DEMO.password)
  const customer = await openPage(browser)
  await signInWithToken(customer.page, token)
  const p = customer.page
  await p.getByTestId('dashboard-credit').waitFor()
  await p.getByTestId('banner-strip').getByText(T.strip).waitFor()
  await p.getByTestId('banner-carousel').waitFor()
  await until(p.getByTestId('dashboard-news'), (t) => t.includes(T.news), 'the news item is not shown')
  await p.getByTestId('quick-access').getByRole('link', { name: T.quick }).waitFor()
  await p.screenshot({ path: '/tmp/dashboard-light.png', fullPage: true })

  // The strip banner's action is a popup with its text.
  await p.getByTestId('banner-strip').getByRole('button').click()
  assert.match(await p.getByTestId('banner-popup-body').innerText(), new RegExp(`جزئیات جشنواره ${tag}`))
  await p.keyboard.press('Escape')
  await p.getByTestId('banner-popup-body').waitFor({ state: 'detached' })
  await dragCarousel(p)
  // The quick-access link goes to its panel path.
  await p.getByTestId('quick-access').getByRole('link', { name: T.quick }).click()
  await waitForPath(p, /^\/wallet\/credit$/)

  // Staff deactivate the news item: gone on the customer's next load.
  await staff.page.getByRole('tab', { name: 'اخبار پیشخوان' }).click()
  await staff.page.getByRole('row', { name: new RegExp(T.news) }).getByRole('button', { name: 'ویرایش' }).click()
  await staff.page.getByRole('dialog').getByText('فعال (به مشتریان نمایش داده شود)').click()
  await staff.page.getByTestId('content-save').click()
  await staff.page.getByRole('dialog').waitFor({ state: 'detached' })
  await p.goto(`${PANEL_URL}/dashboard`)
  await p.getByTestId('banner-strip').waitFor()
  await until(p.getByTestId('dashboard-news'), (t) => t.length > 0 && !t.includes(T.news), 'the deactivated news is still shown')

  // Dark mode and a phone.
  await p.evaluate(() => localStorage.setItem('dark', 'true'))
  await p.reload()
  await p.getByTestId('banner-strip').waitFor()
  await p.screenshot({ path: '/tmp/dashboard-dark.png', fullPage: true })
  await customer.context.close()
  const phone = await openPage(browser, MOBILE)
  await signInWithToken(phone.page, token)
  await phone.page.getByTestId('banner-strip').waitFor()
  await phone.page.getByTestId('quick-access').getByRole('link', { name: T.quick }).waitFor()
  await phone.page.screenshot({ path: '/tmp/dashboard-mobile.png', fullPage: true })
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.ok(overflow <= 0, `the phone dashboard scrolls sideways by ${overflow} px`)
  await phone.context.close()
  await staff.context.close()
})

test('staff add a staff user and deactivate it', { timeout: 120_000 }, async () => {
  const { context, page } = await openPage(browser)
  await staffLogin(page)
  await page.goto(`${PANEL_URL}/admin/staff`)
  const username = `agent${latinTag}`
  await page.getByRole('button', { name: 'افزودن کاربر' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.locator('input[name="username"]').fill(username)
  await dialog.locator('input[name="name"]').fill('پشتیبان آزمایشی')
  await dialog.locator('input[name="mobile"]').fill(randomMobile())
  await dialog.locator('input[name="password"]').fill('short')
  await dialog.getByRole('button', { name: 'ثبت' }).click()
  await dialog.getByText('رمز عبور باید حداقل ۸ کاراکتر باشد').waitFor()
  await dialog.locator('input[name="password"]').fill('Agent@12345')
  await dialog.getByRole('button', { name: 'ثبت' }).click()
  await dialog.waitFor({ state: 'detached' })
  const row = page.getByRole('row', { name: new RegExp(username) })
  await row.getByText('فعال', { exact: true }).waitFor()
  await page.screenshot({ path: '/tmp/dashboard-admin-staff.png' })
  await row.getByRole('button', { name: 'غیرفعال‌سازی' }).click()
  await row.getByText('غیرفعال', { exact: true }).waitFor()
  await row.getByRole('button', { name: 'فعال‌سازی' }).waitFor()
  await context.close()
})
