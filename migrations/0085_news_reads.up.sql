-- Which staff news each user has read (spec §7 Home: /user/news/user_news_list): the
-- dashboard shows the unread count, an item opened is marked read, and «mark all read»
-- marks every live item. Kept per user (colleagues of one account read separately).
CREATE TABLE news_reads (
    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    item_id bigint NOT NULL REFERENCES content_items(id) ON DELETE CASCADE,
    read_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, item_id)
);
CREATE INDEX news_reads_item_idx ON news_reads (item_id);
