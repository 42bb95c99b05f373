// Staff-edited content on the customer dashboard against the real stack: the seeded
// staff user adds a strip banner (popup on click), a carousel banner, a news item and
// a quick-access link in the back office; the demo customer's dashboard shows them
// (after the credit), the popup opens, the quick link navigates; a news item staff
// deactivate is gone on the next load. Then staff add and deactivate a staff user.
// Then banner pictures (a carousel of three that loops 1→2→3→1 every 5000 ms, a popup
// with its picture, a picture that fails to load), news read/unread per user and the
// «old panel» strip, dismissed and remembered.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { DEMO, MOBILE, PANEL_URL, apiCall, apiToken, launch, openPage, randomDigits, randomMobile, signInWithToken, staffLogin, waitForPath } from './helpers.mjs'

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

/** Polls the page until fn(text of the locator) holds (the deadline is only a safety net). */
async function until(locator, fn, what) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
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

/** The staff session's token of a page that went through staffLogin. */
const staffToken = (page) => page.evaluate(() => localStorage.getItem('admin_token'))

/** Staff replace every carousel banner with the given ones (through the API); returns their ids. */
async function replaceCarousel(token, banners) {
  for (const b of await apiCall('GET', '/admin/content?kind=banner', undefined, token)) {
    if (b.placement === 'carousel') await apiCall('POST', `/admin/content/${b.id}/delete`, undefined, token)
  }
  const ids = []
  for (const [i, b] of banners.entries()) {
    const saved = await apiCall('POST', '/admin/content', { kind: 'banner', placement: 'carousel', active: true, position: i + 1, ...b }, token)
    ids.push(String(saved.id))
  }
  return ids
}

/** Spec §9: the carousel advances every 5000 ms (CAROUSEL_MS in ContentBlocks.tsx). */
const CAROUSEL_MS = 5000

/**
 * The banner id of the slide on show once the page has rendered what its timers did:
 * React renders a timer's update in a task of its own, queued before the one this waits for.
 */
async function settledSlide(page) {
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => new Promise((resolve) => {
      const ch = new MessageChannel()
      ch.port1.onmessage = () => resolve()
      ch.port2.postMessage(null)
    }))
  }
  return page.getByTestId('banner-slide').getAttribute('data-banner-id')
}

/** Waits (in real time, the page's clock standing still) until the slide on show is `id`. */
async function slideBecomes(page, id, what) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if ((await settledSlide(page)) === id) return
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.fail(`${what}: the slide on show is ${await settledSlide(page)}, not ${id}`)
}

/**
 * Checks the autoplay on the page's own clock (Playwright's clock API), so a busy machine
 * cannot change what is measured: with the clock standing still, the interval starts when
 * the mouse leaves the carousel (hovering pauses it), then each slide stays 4999 ms of the
 * page's time and the next one shows at 5000, looping 1→2→3→1 over `ids`.
 */
async function checkAutoplay(page, ids) {
  const carousel = page.getByTestId('banner-carousel')
  await carousel.hover() // paused: no interval runs while the clock is stopped below
  const now = await page.evaluate(() => Date.now())
  await page.clock.pauseAt(now + 30_000)
  await page.mouse.move(5, 5) // away from the carousel: the autoplay's interval starts now
  const start = ids.indexOf(await settledSlide(page))
  assert.ok(start >= 0, 'the slide on show is one of the three')
  for (let k = 1; k <= 3; k++) {
    const shown = ids[(start + k - 1) % 3]
    await page.clock.runFor(CAROUSEL_MS - 1)
    assert.equal(await settledSlide(page), shown, `slide ${k} moved on before ${CAROUSEL_MS} ms`)
    await page.clock.runFor(1)
    await slideBecomes(page, ids[(start + k) % 3], `slide ${k} did not move on at ${CAROUSEL_MS} ms in order`)
  }
  await page.clock.resume()
}

test('banner pictures: the carousel loops 1→2→3→1, a popup shows its picture, a broken picture shows its error', { timeout: 180_000 }, async () => {
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  const stok = await staffToken(staff.page)
  const ids = await replaceCarousel(stok, [
    { title: `پنجره تخفیف ${tag}`, body: `جزئیات تخفیف ${tag}`, action: 'popup', link: '/wallet/credit', image: '/banners/banner-1.svg' },
    { title: `منشی ${tag}`, action: 'same_window', link: '/wallet/credit', image: '/banners/banner-2.svg', image_mobile: '/banners/banner-3.svg' },
    { title: `تصویر گم‌شده ${tag}`, action: 'new_tab', link: 'https://example.com/', image: '/banners/missing-banner.png' },
  ])
  await staff.context.close()

  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await page.clock.install() // the page's timers run on a clock the test can stop and move
  await signInWithToken(page, token)
  await page.getByTestId('banner-carousel').waitFor()
  // Autoplay: the three slides in order, then the first again, one every 5000 ms.
  await checkAutoplay(page, ids)
  await page.screenshot({ path: '/tmp/dashboard-banners-light.png' })

  // The popup banner: its picture (loaded) and its text in a dialog.
  await page.getByRole('button', { name: 'بنر 1', exact: true }).click()
  await page.getByTestId(`banner-${ids[0]}`).click()
  const popup = page.getByTestId('banner-popup-image')
  await popup.waitFor()
  await page.waitForFunction(() => document.querySelector('[data-testid="banner-popup-image"] img')?.naturalWidth > 0)
  assert.match(await page.getByTestId('banner-popup-body').innerText(), new RegExp(`جزئیات تخفیف ${tag}`))
  assert.equal(await popup.getByRole('link').getAttribute('href'), '/wallet/credit')
  await page.waitForTimeout(400) // the dialog's entry animation
  await page.screenshot({ path: '/tmp/dashboard-banner-popup.png' })
  await page.keyboard.press('Escape')
  await popup.waitFor({ state: 'detached' })

  // A picture that does not load shows the error state, with the banner's title.
  await page.getByRole('button', { name: 'بنر 3', exact: true }).click()
  const broken = page.getByTestId('banner-carousel').getByTestId('banner-image-error')
  await broken.waitFor()
  assert.match(await broken.innerText(), new RegExp(`تصویر گم‌شده ${tag}`))
  await page.screenshot({ path: '/tmp/dashboard-banner-broken.png' })
  await context.close()
})

test('news: unread count, an opened item is read, «همه خوانده شد», kept per user across loads', { timeout: 120_000 }, async () => {
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  const stok = await staffToken(staff.page)
  await staff.context.close()
  for (const old of await apiCall('GET', '/admin/content?kind=news', undefined, stok)) {
    await apiCall('POST', `/admin/content/${old.id}/delete`, undefined, stok)
  }
  for (const [i, title] of [`اطلاعیه اول ${tag}`, `اطلاعیه دوم ${tag}`, `اطلاعیه سوم ${tag}`].entries()) {
    await apiCall('POST', '/admin/content', { kind: 'news', title, body: `متن ${title}`, active: true, position: i }, stok)
  }
  const token = await apiToken(DEMO.username, DEMO.password)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token)
  const news = page.getByTestId('dashboard-news')
  const unread = page.getByTestId('news-unread')
  await until(unread, (t) => t.includes('۳ خوانده‌نشده'), 'three unread news are not counted')
  const second = news.getByTestId('news-item').nth(1)
  assert.equal(await second.getAttribute('data-read'), 'false')
  // The marks are shown at once; the reloads below wait for the server's answer.
  const markedOne = page.waitForResponse((r) => /\/user\/news\/\d+\/read$/.test(r.url()) && r.ok())
  await second.getByRole('button').click()
  await markedOne
  await second.getByTestId('news-body').getByText(`متن اطلاعیه دوم ${tag}`).waitFor()
  await until(unread, (t) => t.includes('۲ خوانده‌نشده'), 'opening an item did not mark it read')
  await page.screenshot({ path: '/tmp/dashboard-news.png' })
  await page.reload()
  await until(unread, (t) => t.includes('۲ خوانده‌نشده'), 'the read mark was not kept')
  assert.equal(await news.getByTestId('news-item').nth(1).getAttribute('data-read'), 'true')
  assert.equal(await news.getByTestId('news-item').nth(0).getAttribute('data-read'), 'false')
  const markedAll = page.waitForResponse((r) => r.url().endsWith('/user/news/read_all') && r.ok())
  await page.getByTestId('news-read-all').click()
  await unread.waitFor({ state: 'detached' })
  await markedAll
  await page.reload()
  await news.getByTestId('news-item').first().waitFor()
  assert.deepEqual(await news.getByTestId('news-item').evaluateAll((els) => els.map((e) => e.dataset.read)), ['true', 'true', 'true'])
  assert.equal(await unread.count(), 0)
  // (Read marks are per user: TestNewsReadUnread.)
  const list = await apiCall('GET', '/user/news/user_news_list', undefined, token)
  assert.equal(list.unread, 0)
  // Dark mode and a phone, with the banner pictures (the phone's own one for the second).
  await page.evaluate(() => localStorage.setItem('dark', 'true'))
  await page.reload()
  await page.getByTestId('banner-image').first().waitFor()
  await news.getByTestId('news-item').first().waitFor()
  await page.screenshot({ path: '/tmp/dashboard-content-dark.png', fullPage: true })
  await context.close()
  const phone = await openPage(browser, MOBILE)
  await signInWithToken(phone.page, token)
  await phone.page.getByTestId('banner-image').first().waitFor()
  await phone.page.getByTestId('dashboard-news').getByTestId('news-item').first().waitFor()
  await phone.page.screenshot({ path: '/tmp/dashboard-content-mobile.png', fullPage: true })
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.ok(overflow <= 0, `the phone dashboard scrolls sideways by ${overflow} px`)
  await phone.context.close()
})

test('the «old panel» strip: off until staff set its address, then on the login page and the panel, a new tab, dismissed for good', { timeout: 180_000 }, async () => {
  const token = await apiToken(DEMO.username, DEMO.password)
  const staff = await openPage(browser)
  await staffLogin(staff.page)
  const staffToken = await staff.page.evaluate(() => localStorage.getItem('admin_token'))
  await apiCall('POST', '/admin/old_panel', { url: '' }, staffToken)
  const { context, page } = await openPage(browser)
  await signInWithToken(page, token)
  await page.getByTestId('dashboard-credit').waitFor()
  const strip = page.getByTestId('old-panel-banner')
  assert.equal(await strip.count(), 0, 'the strip shows with no address set')
  // Staff set the address in the back office.
  await staff.page.goto(`${PANEL_URL}/admin/content`)
  await staff.page.getByTestId('old-panel-url').fill('https://old.example.ir')
  await staff.page.getByTestId('old-panel-save').click()
  await staff.page.getByText('نوار پنل قدیم روشن شد').waitFor()
  await staff.context.close()
  await page.reload()
  await strip.waitFor() // in the panel
  await page.evaluate(() => localStorage.removeItem('token'))
  await page.goto(`${PANEL_URL}/login`)
  await strip.waitFor() // and on the login page
  const link = strip.getByRole('link')
  assert.equal(await link.getAttribute('href'), 'https://old.example.ir')
  assert.equal(await link.getAttribute('target'), '_blank')
  assert.match(await link.getAttribute('rel'), /noopener/)
  await page.screenshot({ path: '/tmp/login-old-panel.png' })
  await strip.getByRole('button', { name: 'بستن' }).click()
  await strip.waitFor({ state: 'detached' })
  await page.reload()
  await page.getByRole('heading', { name: 'ورود به پنل' }).waitFor()
  assert.equal(await strip.count(), 0, 'the dismissed strip came back on the login page')
  await signInWithToken(page, token)
  await page.getByTestId('dashboard-credit').waitFor()
  assert.equal(await strip.count(), 0, 'the dismissed strip came back in the panel')
  await context.close()
})
