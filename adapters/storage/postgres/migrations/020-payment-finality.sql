-- A succeeded payment's transaction is followed until its chain calls it final (issue 29 item 1):
-- NULL for a payment that never succeeded, or succeeded before this was kept (or on a chain whose
-- adapter confirms only at finality); 'pending' while followed; 'final'; 'reversed' when its block
-- was dropped and nothing could pay any more (finality_reason says why).
ALTER TABLE payments ADD COLUMN IF NOT EXISTS finality text CHECK (finality IN ('pending', 'final', 'reversed'));
ALTER TABLE payments ADD COLUMN IF NOT EXISTS finality_reason text;
