-- Support (spec §3 Ticket, §4 "Ticket and suggestion", §7 Support): tickets and
-- suggestion requests with their conversation, attachments and ratings; the
-- categories customers pick; staff's canned answers; customers' feedback on the
-- panel; the FAQ; and each account's choice of an SMS when staff answer.
CREATE TABLE ticket_categories (
    id        bigserial PRIMARY KEY,
    parent_id bigint REFERENCES ticket_categories(id) ON DELETE CASCADE,
    title     text NOT NULL,
    position  int NOT NULL DEFAULT 0
);
CREATE INDEX ticket_categories_parent ON ticket_categories (parent_id, position, id);

CREATE SEQUENCE ticket_number_seq START 100001;

-- state: 1 waiting for the customer, 2 waiting for support, 3 answered, 4 closed,
-- 5 referred for further review, 6 referred to the relevant unit (pkg/support).
CREATE TABLE tickets (
    id              bigserial PRIMARY KEY,
    account_id      bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind            text NOT NULL CHECK (kind IN ('ticket', 'suggestion')),
    number          bigint NOT NULL UNIQUE DEFAULT nextval('ticket_number_seq'),
    category_id     bigint REFERENCES ticket_categories(id) ON DELETE SET NULL,
    sub_category_id bigint REFERENCES ticket_categories(id) ON DELETE SET NULL,
    title           text NOT NULL,
    state           smallint NOT NULL DEFAULT 2 CHECK (state BETWEEN 1 AND 6),
    rating          smallint CHECK (rating BETWEEN 1 AND 5),
    rating_comment  text NOT NULL DEFAULT '',
    created_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    assigned_to     bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    closed_at       timestamptz
);
CREATE INDEX tickets_account ON tickets (account_id, kind, id DESC);
CREATE INDEX tickets_queue ON tickets (state, updated_at DESC);

-- One message of the conversation: the customer's (staff false) or support's.
CREATE TABLE ticket_interactions (
    id         bigserial PRIMARY KEY,
    ticket_id  bigint NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id    bigint REFERENCES users(id) ON DELETE SET NULL,
    staff      boolean NOT NULL,
    text       text NOT NULL,
    rating     smallint CHECK (rating BETWEEN 1 AND 5),
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (rating IS NULL OR staff)
);
CREATE INDEX ticket_interactions_ticket ON ticket_interactions (ticket_id, id);

CREATE TABLE ticket_attachments (
    id             bigserial PRIMARY KEY,
    interaction_id bigint NOT NULL REFERENCES ticket_interactions(id) ON DELETE CASCADE,
    account_id     bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name           text NOT NULL,
    content_type   text NOT NULL,
    size           bigint NOT NULL,
    storage_key    text NOT NULL
);
CREATE INDEX ticket_attachments_interaction ON ticket_attachments (interaction_id);

CREATE TABLE ticket_settings (
    account_id    bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    sms_on_answer boolean NOT NULL DEFAULT true,
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE canned_answers (
    id         bigserial PRIMARY KEY,
    title      text NOT NULL,
    text       text NOT NULL,
    updated_by bigint REFERENCES users(id) ON DELETE SET NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE panel_feedback (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id    bigint REFERENCES users(id) ON DELETE SET NULL,
    rating     smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
    text       text NOT NULL DEFAULT '',
    page       text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX panel_feedback_created ON panel_feedback (created_at DESC);

CREATE TABLE faq_categories (
    id       bigserial PRIMARY KEY,
    title    text NOT NULL UNIQUE,
    position int NOT NULL DEFAULT 0
);

CREATE TABLE faqs (
    id          bigserial PRIMARY KEY,
    category_id bigint NOT NULL REFERENCES faq_categories(id) ON DELETE CASCADE,
    question    text NOT NULL,
    answer      text NOT NULL,
    position    int NOT NULL DEFAULT 0,
    active      boolean NOT NULL DEFAULT true,
    updated_by  bigint REFERENCES users(id) ON DELETE SET NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX faqs_category ON faqs (category_id, position, id);

-- The categories customers pick.
WITH c AS (
    INSERT INTO ticket_categories (title, position) VALUES
        ('فنی', 1), ('مالی', 2), ('خطوط ارسال', 3), ('وب‌سرویس و API', 4), ('حساب کاربری', 5), ('سایر', 6)
    RETURNING id, title)
INSERT INTO ticket_categories (parent_id, title, position)
SELECT c.id, s.title, s.position FROM c JOIN (VALUES
    ('فنی', 'ارسال نشدن پیامک', 1), ('فنی', 'تاخیر در تحویل پیامک', 2), ('فنی', 'خطا در بارگذاری فایل', 3), ('فنی', 'گزارش‌ها', 4),
    ('مالی', 'افزایش اعتبار', 1), ('مالی', 'پرداخت کارت به کارت', 2), ('مالی', 'فاکتور رسمی', 3), ('مالی', 'بازگشت وجه', 4),
    ('خطوط ارسال', 'خرید خط اختصاصی', 1), ('خطوط ارسال', 'فعال‌سازی خط', 2), ('خطوط ارسال', 'تمدید خط', 3),
    ('وب‌سرویس و API', 'کلید API', 1), ('وب‌سرویس و API', 'الگوها (پترن)', 2), ('وب‌سرویس و API', 'وب‌هوک', 3),
    ('حساب کاربری', 'تغییر شماره همراه', 1), ('حساب کاربری', 'احراز هویت و مدارک', 2), ('حساب کاربری', 'ورود و رمز عبور', 3),
    ('سایر', 'پیشنهاد و انتقاد', 1), ('سایر', 'سایر موارد', 2)
) AS s(parent, title, position) ON s.parent = c.title;

INSERT INTO canned_answers (title, text) VALUES
    ('پیگیری در حال انجام', 'درخواست شما دریافت شد و در حال بررسی است. نتیجه را در همین درخواست اعلام می‌کنیم.'),
    ('نیاز به اطلاعات بیشتر', 'برای بررسی دقیق‌تر، لطفا شماره ارسال، زمان تقریبی و یک نمونه از شماره‌های گیرنده را بفرستید.'),
    ('تحویل پیامک به مخابرات', 'پیامک شما با موفقیت به مخابرات تحویل شده است. وضعیت نهایی تحویل به گوشی در گزارش ارسال به‌روز می‌شود.'),
    ('فاکتور رسمی', 'فاکتور رسمی پس از تکمیل اطلاعات حقوقی در پروفایل، از بخش امور مالی قابل دریافت است.');

WITH c AS (
    INSERT INTO faq_categories (title, position) VALUES
        ('ارسال پیامک', 1), ('امور مالی', 2), ('خطوط ارسال', 3), ('وب‌سرویس', 4), ('حساب کاربری', 5)
    RETURNING id, title)
INSERT INTO faqs (category_id, question, answer, position)
SELECT c.id, f.question, f.answer, f.position FROM c JOIN (VALUES
    ('ارسال پیامک', 'چرا پیامک من به برخی شماره‌ها نرسیده است؟', 'شماره‌هایی که در لیست سیاه مخابرات هستند یا دریافت پیامک تبلیغاتی را غیرفعال کرده‌اند، پیامک خطوط تبلیغاتی را دریافت نمی‌کنند. وضعیت هر گیرنده در گزارش ارسال نمایش داده می‌شود.', 1),
    ('ارسال پیامک', 'هر پیامک فارسی چند کاراکتر است؟', 'یک پیامک فارسی تا ۷۰ کاراکتر و پیامک انگلیسی تا ۱۶۰ کاراکتر است. پیام‌های طولانی‌تر در چند بخش ارسال و به همان تعداد هزینه محاسبه می‌شود.', 2),
    ('ارسال پیامک', 'آیا می‌توانم ارسال را زمان‌بندی کنم؟', 'بله، در مرحله آخر همه روش‌های ارسال می‌توانید تاریخ و ساعت ارسال را انتخاب کنید. ارسال زمان‌بندی‌شده تا پیش از شروع قابل لغو است.', 3),
    ('ارسال پیامک', 'لغو۱۱ چیست؟', 'عبارت «لغو۱۱» به انتهای پیامک‌های تبلیغاتی افزوده می‌شود تا گیرنده بتواند با ارسال عدد ۱۱ دریافت پیامک را لغو کند.', 4),
    ('امور مالی', 'چگونه حساب خود را شارژ کنم؟', 'از بخش امور مالی، گزینه افزایش اعتبار را انتخاب کنید و مبلغ را از درگاه بانکی یا به صورت کارت به کارت پرداخت کنید.', 1),
    ('امور مالی', 'پرداخت کارت به کارت چه زمانی تایید می‌شود؟', 'گزارش پرداخت کارت به کارت در ساعات اداری حداکثر تا دو ساعت بررسی و در صورت تایید، اعتبار به حساب شما افزوده می‌شود.', 2),
    ('امور مالی', 'هزینه پیامک‌های ارسال‌نشده برمی‌گردد؟', 'بله، هزینه پیامک‌هایی که به مخابرات تحویل نشوند یا ارسال آن‌ها متوقف شود به‌طور خودکار به اعتبار حساب بازگردانده می‌شود.', 3),
    ('خطوط ارسال', 'تفاوت خط خدماتی و تبلیغاتی چیست؟', 'خط خدماتی برای پیام‌های اطلاع‌رسانی و کد تایید است و به شماره‌های لیست سیاه هم می‌رسد؛ خط تبلیغاتی فقط برای پیام‌های تبلیغاتی است.', 1),
    ('خطوط ارسال', 'چگونه خط اختصاصی بخرم؟', 'از بخش خطوط ارسال، خط مورد نظر را انتخاب و پس از پرداخت، مدارک لازم را بارگذاری کنید. خط پس از تایید مخابرات فعال می‌شود.', 2),
    ('وب‌سرویس', 'کلید API را از کجا بسازم؟', 'در بخش برنامه‌نویسان، گزینه ساخت کلید API را بزنید. کلید فقط یک بار نمایش داده می‌شود؛ آن را در جای امنی نگه دارید.', 1),
    ('وب‌سرویس', 'الگو (پترن) چیست؟', 'الگو متنی از پیش تاییدشده با متغیر است که برای کد تایید و پیام‌های خدماتی با سرعت بالا ارسال می‌شود.', 2),
    ('حساب کاربری', 'رمز عبور خود را فراموش کرده‌ام؛ چه کنم؟', 'در صفحه ورود، گزینه فراموشی رمز عبور را بزنید. کد بازیابی به شماره همراه ثبت‌شده در حساب ارسال می‌شود.', 1),
    ('حساب کاربری', 'چگونه ورود دومرحله‌ای را فعال کنم؟', 'از بخش تنظیمات امنیتی پروفایل، روش ورود دومرحله‌ای (پیامک، تماس صوتی یا اپلیکیشن) را انتخاب و فعال کنید.', 2)
) AS f(cat, question, answer, position) ON f.cat = c.title;

-- The contact info customers see (content kind contact), when staff have none yet.
INSERT INTO content_items (kind, title, body, link, position)
SELECT v.kind, v.title, v.body, v.link, v.position FROM (VALUES
    ('contact', 'تلفن پشتیبانی', '۰۲۱-۹۱۰۰۷۰۰۰', 'tel:02191007000', 1),
    ('contact', 'ساعات پاسخ‌گویی', 'شنبه تا چهارشنبه ۸ تا ۱۷، پنجشنبه ۸ تا ۱۳', '', 2),
    ('contact', 'ایمیل', 'support@chapar.ir', 'mailto:support@chapar.ir', 3),
    ('contact', 'نشانی', 'تهران، خیابان ولیعصر، بالاتر از پارک ساعی، پلاک ۲۱۰، طبقه چهارم', '', 4)
) AS v(kind, title, body, link, position)
WHERE NOT EXISTS (SELECT 1 FROM content_items WHERE kind = 'contact');
