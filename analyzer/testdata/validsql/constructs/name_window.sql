-- window as a column name
SELECT id, window FROM door WHERE window > 0
