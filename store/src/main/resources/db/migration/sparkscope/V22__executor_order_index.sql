-- The executors tab and Spark's executor lists read one page in the order executors appeared. An elastic
-- application may have 100 000 executors: without this index every page sorted all of them.
CREATE INDEX executor_app_ord ON executor (app_pk, ord);
