ALTER TABLE stage_attempt ADD COLUMN num_example_tasks integer NOT NULL DEFAULT 0;
