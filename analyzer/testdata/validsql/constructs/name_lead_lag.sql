-- lead and lag as names
SELECT lead, lag, LEAD(id) OVER (ORDER BY id) AS lead FROM door
