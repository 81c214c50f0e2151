ws-output-format: 2
t: 
columns: 
every: :
ss