import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The web client's template engine: mustache's rules for what the templates use, over typed values.
@Suite struct TemplateTests {
    func render(_ source: String, _ root: TemplateFields, partials: [String: String] = [:]) throws -> String {
        var library = TemplateLibrary()
        try library.register(source, named: "page")
        for (name, partial) in partials { try library.register(partial, named: name) }
        return String(decoding: library.render("page", .object(root)), as: UTF8.self)
    }

    @Test func escapesTheFiveCharactersMustacheDoesAndTripleBracesWriteAsIs() throws {
        let root: TemplateFields = ["text": "<a href=\"x\">Tom & Jerry's</a> 毛肚"]
        #expect(
            try render("{{text}}|{{{text}}}|{{&text}}", root)
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt; 毛肚|<a href=\"x\">Tom & Jerry's</a> 毛肚"
                + "|<a href=\"x\">Tom & Jerry's</a> 毛肚")
        #expect(HTMLEscaping.escape("a<b>c&d\"e'f") == "a&lt;b&gt;c&amp;d&quot;e&#39;f")
        #expect(HTMLEscaping.escape("") == "")
        // Byte by byte: a quote with a combining mark after it is still escaped (swift-mustache compared whole
        // Characters, so `"` + U+0301 went out raw and could end an attribute).
        #expect(HTMLEscaping.escape("\"\u{301}<\u{338}") == "&quot;\u{301}&lt;\u{338}")
    }

    @Test func numbersAndFlagsWriteAsSwiftDoes() throws {
        #expect(
            try render("{{n}} {{m}} {{yes}} {{no}}", ["n": 42, "m": -7, "yes": true, "no": false]) == "42 -7 true false"
        )
    }

    @Test func sectionsOverEachKindOfValue() throws {
        let root: TemplateFields = [
            "yes": true, "no": false, "empty": [String](), "names": ["a", "b"], "text": "", "count": 0,
            "person": ["name": "Ann"] as TemplateFields, "absent": String?.none,
        ]
        // A list renders once per item, `true` once, any other present value (even "" or 0) once with it on top.
        #expect(try render("{{#names}}[{{.}}]{{/names}}", root) == "[a][b]")
        #expect(try render("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}", root) == "Y")
        #expect(try render("{{#empty}}E{{/empty}}{{#absent}}A{{/absent}}{{#missing}}M{{/missing}}", root) == "")
        #expect(try render("{{#text}}T{{/text}}{{#count}}<{{.}}>{{/count}}", root) == "T<0>")
        #expect(try render("{{#person}}{{name}}{{/person}}", root) == "Ann")
        // Inverted: exactly when the section would not render.
        #expect(
            try render("{{^no}}n{{/no}}{{^empty}}e{{/empty}}{{^absent}}a{{/absent}}{{^missing}}m{{/missing}}", root)
                == "neam")
        #expect(
            try render("{{^yes}}y{{/yes}}{{^names}}l{{/names}}{{^text}}t{{/text}}{{^person}}p{{/person}}", root) == "")
    }

    @Test func namesAreLookedUpDownTheStackAndDottedNamesFromTheirFirstPart() throws {
        let root: TemplateFields = [
            "title": "outer", "t": ["hello": "你好"] as TemplateFields,
            "card": ["name": "Card", "price": String?.none] as TemplateFields, "price": "¥10",
            "items": [["name": "one"] as TemplateFields, ["title": "inner"] as TemplateFields],
        ]
        #expect(try render("{{#items}}{{name}}/{{title}}/{{t.hello}};{{/items}}", root) == "one/outer/你好;/inner/你好;")
        // A nil field is absent: the lookup goes on down the stack, as swift-mustache's did.
        #expect(try render("{{#card}}{{name}} {{price}}{{/card}}", root) == "Card ¥10")
        // The rest of a dotted name is read from the value its first part found, not down the stack.
        #expect(try render("{{card.name}}|{{card.price}}|{{card.title}}|{{nothing.name}}", root) == "Card|||")
        #expect(try render("{{#card.name}}{{.}}!{{/card.name}}", root) == "Card!")
        #expect(try render("[{{missing}}]", root) == "[]")
    }

    @Test func pageModelsAnswerTheirFieldsTyped() throws {
        let stars = StarsModel(4, language: .en)
        #expect(try render("{{#stars}}{{glyphs}} {{label}}{{/stars}}", ["stars": stars]) == "★★★★☆ 4.0 out of 5 stars")
    }

    @Test func standaloneTagLinesLeaveNoTrace() throws {
        let source = "<ul>\n  {{#names}}\n  <li>{{.}}</li>\n  {{/names}}\n  {{^names}}\n  none\n  {{/names}}\n</ul>\n"
        #expect(try render(source, ["names": ["a", "b"]]) == "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n")
        // A tag beside text is not standalone: the line and its spaces stay.
        #expect(try render("  {{#yes}}x{{/yes}}\n", ["yes": true]) == "  x\n")
        #expect(try render("a {{! a comment }} b\n{{! alone }}\nc", [:]) == "a  b\nc")
    }

    @Test func partialsRenderInTheCallersContextAndStandaloneOnesAreIndented() throws {
        let partials = ["card": "<b>{{name}}</b>\n<i>{{t}}</i>\n"]
        let root: TemplateFields = ["t": "T", "people": [["name": "A"] as TemplateFields]]
        #expect(try render("{{#people}}{{> card}}{{/people}}", root, partials: partials) == "<b>A</b>\n<i>T</i>\n")
        #expect(
            try render("<div>\n  {{#people}}\n  {{> card}}\n  {{/people}}\n</div>\n", root, partials: partials)
                == "<div>\n  <b>A</b>\n  <i>T</i>\n</div>\n")
        #expect(try render("[{{> unknown}}]", root) == "[]")
    }

    @Test func malformedTemplatesAreRefusedAtStartup() {
        for source in ["{{#open}}never closed", "{{#a}}{{/b}}", "{{name", "{{=<% %>=}}", "{{}}"] {
            #expect(throws: Template.ParseError.self, "\(source)") { try Template(source) }
        }
    }

    @Test func everyEmbeddedTemplateParses() throws {
        let pages = try WebPages(files: embeddedWebFiles)
        for name in ["layout", "home", "store", "storeCard", "commentCard", "search", "comment", "user", "me"] {
            #expect(pages.library.templates[name] != nil, "\(name)")
        }
    }
}
