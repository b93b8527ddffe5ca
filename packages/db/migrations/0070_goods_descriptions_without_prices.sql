-- Issue 23: a goods' price lives only in its fields (unit_price_fen, unit_size, unit), which every
-- page renders; descriptions that repeated it (`每篇每库 15 元` after the price became ¥18) lose
-- the clause. The console and the operator API refuse a new description with a price
-- (contracts' PRICE_IN_TEXT), and the server strips any left from what users see (withoutPrices).
update goods
   set description = btrim(regexp_replace(description,
         '[，,；;]?[[:space:]]*每[^，。,；;0-9]{0,6}[[:space:]]*[0-9]+(\.[0-9]+)?[[:space:]]*元', '', 'g'))
 where description ~ '每[^，。,；;0-9]{0,6}[[:space:]]*[0-9]+(\.[0-9]+)?[[:space:]]*元';
