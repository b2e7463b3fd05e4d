-- A redelivery asked for while the delivery was claimed: when it was
-- asked for. The attempt in flight, once recorded, leaves the delivery
-- pending again, due then.
ALTER TABLE deliveries ADD COLUMN redeliver_at BIGINT;
