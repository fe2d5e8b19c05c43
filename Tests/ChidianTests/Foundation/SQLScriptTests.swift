import Foundation
import Logging
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct SQLScriptTests {
    @Test func splitsOnSemicolonsOutsideQuotesCommentsAndDollarBodies() {
        let script = """
            -- a comment; with a semicolon
            CREATE TABLE t (s text DEFAULT 'a;b', "odd;name" int);
            /* block; comment */
            CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$;
            CREATE FUNCTION g() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 2; END $body$;
            SELECT 'it''s; fine', $1
            """
        #expect(
            SQLScript.statements(script) == [
                "CREATE TABLE t (s text DEFAULT 'a;b', \"odd;name\" int)",
                "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$",
                "CREATE FUNCTION g() RETURNS int LANGUAGE plpgsql AS $body$ BEGIN RETURN 2; END $body$",
                "SELECT 'it''s; fine', $1",
            ])
    }
}
