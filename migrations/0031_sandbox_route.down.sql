DELETE FROM operators WHERE code = 'sandbox';
