-- What a voucher needs to be usable: each prize says where and how its voucher is used, its
-- conditions, and for how many days a voucher stays valid; each voucher records until when it
-- can be used, fixed when it is issued.

ALTER TABLE prizes ADD COLUMN how_to_use text NOT NULL DEFAULT '';
ALTER TABLE prizes ADD COLUMN conditions text NOT NULL DEFAULT '';
ALTER TABLE prizes ADD COLUMN voucher_valid_days integer NOT NULL DEFAULT 90 CHECK (voucher_valid_days > 0);

ALTER TABLE redeem_sessions ADD COLUMN voucher_valid_until timestamptz;

-- Prizes seeded from the shipped catalogue before this migration get its texts (an operator's
-- own prizes keep empty ones, which the voucher screen leaves out). The tote bag's value label
-- repeated its name; it now says what the bag is worth, as the catalogue does.
UPDATE prizes SET
  how_to_use = 'Show the code or its QR code at the counter of any partner café before you pay.',
  conditions = 'One hot drink of any size. Not exchangeable for cash. One voucher per visit.',
  voucher_valid_days = 90
 WHERE id = 'coffee-voucher' AND how_to_use = '';
UPDATE prizes SET
  how_to_use = 'Show the code or its QR code to your server at a partner restaurant when you order.',
  conditions = 'With any main course, dine-in only. Not exchangeable for cash. One voucher per table.',
  voucher_valid_days = 90
 WHERE id = 'free-dessert' AND how_to_use = '';
UPDATE prizes SET
  how_to_use = 'Enter the code on the partner shop''s claim page with your postal address; the bag is posted to you.',
  conditions = 'Delivery within the EU only, in 10 working days. One bag per code. Not exchangeable for cash.',
  voucher_valid_days = 60
 WHERE id = 'tote-bag' AND how_to_use = '';
UPDATE prizes SET value = '{"amount": 15, "currency": "EUR"}'::jsonb
 WHERE id = 'tote-bag' AND value = '{"label": "Tote bag"}'::jsonb;
UPDATE prizes SET
  how_to_use = 'Show the code or its QR code at the box office of a partner cinema, or enter it when you book online.',
  conditions = 'One standard 2D seat, any screening. Premium seats and 3D cost extra. Not exchangeable for cash.',
  voucher_valid_days = 180
 WHERE id = 'cinema-ticket' AND how_to_use = '';
UPDATE prizes SET
  how_to_use = 'Enter the code at checkout in a partner online shop, or show it at the till in a partner shop.',
  conditions = 'Worth 10 EUR, usable over several purchases until spent. Not exchangeable for cash.',
  voucher_valid_days = 365
 WHERE id = 'gift-card-10-eur' AND how_to_use = '';

-- Vouchers issued before this migration: valid for their prize's days from their redemption.
UPDATE redeem_sessions s
   SET voucher_valid_until = s.completed_at + p.voucher_valid_days * interval '24 hours'
  FROM gifts g JOIN prizes p ON p.id = g.prize_id
 WHERE g.id = s.gift_id AND s.status = 'completed';

ALTER TABLE redeem_sessions ADD CONSTRAINT redeem_sessions_voucher_valid_until
  CHECK ((status = 'completed') = (voucher_valid_until IS NOT NULL));
