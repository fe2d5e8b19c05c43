#!/usr/bin/env perl
# Turns a pgbench script into EXPLAIN (ANALYZE, BUFFERS) statements for psql: comments and \set lines go,
# each :name with an environment variable BENCH_VAR_name becomes that value as a quoted literal. A statement ended
# by \gset also runs as is, so psql sets its columns for the statements after it (:name without BENCH_VAR_name).
use strict;
use warnings;

local $/;
my $script = <>;
$script =~ s/\n\s*\\gset\s*\n/ GSET;\n/g;
$script =~ s/^\s*(--|\\).*\n//mg;
my $number = 0;
for my $statement (split /;\s*\n/, $script) {
    my $gset = $statement =~ s/\s*GSET\s*$//;
    next unless $statement =~ /\S/;
    $statement =~ s/(?<!:):(\w+)/literal($1)/ge;
    $number++;
    (my $first = $statement) =~ s/^\s+//;
    $first = (split /\n/, $first)[0];
    $first =~ s/'/''/g;
    print "\\echo '-- $number. $first ...'\n";
    print "EXPLAIN (ANALYZE, BUFFERS) $statement;\n";
    print "$statement \\gset\n" if $gset;
}

sub literal {
    my ($name) = @_;
    my $value = $ENV{"BENCH_VAR_$name"};
    return ":'$name'" unless defined $value;
    $value =~ s/'/''/g;
    return "'$value'";
}
