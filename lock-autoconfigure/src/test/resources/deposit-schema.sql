create table deposit (account varchar(32) not null, amount int not null);
