TRUNCATE contact_search;
