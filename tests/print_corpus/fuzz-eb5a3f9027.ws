ws-output-format: 3
toolt47-7--------------9 label 
tau