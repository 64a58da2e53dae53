#include "exact_json.hpp"

#include "pricing/observation.hpp"

#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <functional>
#include <utility>

namespace lcg::market {

namespace json = boost::json;
using pricing::invalid;
using pricing::quote;

namespace {

// A basic_parser handler that builds a json_node tree. Numbers arrive as their text (the parts of
// a number split across reads, then the rest with the parsed value, which is ignored).
class tree_builder {
public:
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    json_node root;
    std::string refusal;        // why the handler stopped the parser, when it did
    char const* last = nullptr;  // the end of the last token read from the input, for messages

    tree_builder(std::string_view input, std::size_t max_values) : input_(input), max_values_(max_values) {}

    bool on_document_begin(json::error_code&) { return true; }
    bool on_document_end(json::error_code&) { return true; }
    bool on_object_begin(json::error_code& ec) { return open(json_kind::object, ec); }
    bool on_object_end(std::size_t, json::error_code& ec) { return close(ec); }
    bool on_array_begin(json::error_code& ec) { return open(json_kind::array, ec); }
    bool on_array_end(std::size_t, json::error_code& ec) { return close(ec); }
    bool on_key_part(json::string_view s, std::size_t, json::error_code&) { return append(key_, s); }
    bool on_key(json::string_view s, std::size_t, json::error_code&) { return append(key_, s); }
    bool on_string_part(json::string_view s, std::size_t, json::error_code&) { return append(part_, s); }
    bool on_string(json::string_view s, std::size_t, json::error_code& ec) { return leaf(json_kind::string, s, ec); }
    bool on_number_part(json::string_view s, json::error_code&) { return append(part_, s); }
    bool on_int64(std::int64_t, json::string_view s, json::error_code& ec) { return leaf(json_kind::number, s, ec); }
    bool on_uint64(std::uint64_t, json::string_view s, json::error_code& ec) { return leaf(json_kind::number, s, ec); }
    bool on_double(double, json::string_view s, json::error_code& ec) { return leaf(json_kind::number, s, ec); }
    bool on_bool(bool b, json::error_code& ec) { return leaf(json_kind::boolean, b ? "true" : "false", ec); }
    bool on_null(json::error_code& ec) { return leaf(json_kind::null, {}, ec); }
    // The options refuse comments; these only complete the handler's interface.
    bool on_comment_part(json::string_view, json::error_code&) { return true; }
    bool on_comment(json::string_view, json::error_code&) { return true; }

private:
    std::string_view input_;
    std::size_t max_values_;
    std::size_t values_ = 0;
    std::vector<json_node> open_;  // the arrays and objects not closed yet, outermost first
    std::string key_;              // the key of the value to come, inside an object
    std::string part_;             // the string or number read so far

    bool append(std::string& to, json::string_view s)
    {
        to.append(s.data(), s.size());
        // Unescaped text points into the input; escaped text into the parser's own buffer.
        std::less<char const*> const before;
        if (!before(s.data(), input_.data()) && !before(input_.data() + input_.size(), s.data() + s.size()))
            last = s.data() + s.size();
        return true;
    }
    bool refuse(std::string why, json::error_code& ec)
    {
        refusal = std::move(why);
        ec = boost::system::errc::make_error_code(boost::system::errc::invalid_argument);
        return false;
    }
    bool counted(json::error_code& ec)
    {
        if (++values_ > max_values_)
            return refuse("the document has more than " + std::to_string(max_values_) + " values", ec);
        return true;
    }
    bool open(json_kind kind, json::error_code& ec)
    {
        if (!counted(ec))
            return false;
        json_node& n = open_.emplace_back();
        n.kind = kind;
        n.key = std::exchange(key_, {});
        return true;
    }
    bool leaf(json_kind kind, json::string_view s, json::error_code& ec)
    {
        if (!counted(ec))
            return false;
        append(part_, s);
        json_node n;
        n.kind = kind;
        n.text = std::exchange(part_, {});
        n.key = std::exchange(key_, {});
        attach(std::move(n));
        return true;
    }
    bool close(json::error_code& ec)
    {
        json_node n = std::move(open_.back());
        open_.pop_back();
        if (n.kind == json_kind::object && n.items.size() >= 2) {
            std::vector<std::string_view> keys;
            keys.reserve(n.items.size());
            for (auto const& m : n.items)
                keys.push_back(m.key);
            std::sort(keys.begin(), keys.end());
            if (auto const twice = std::adjacent_find(keys.begin(), keys.end()); twice != keys.end())
                return refuse("an object names the key " + quote(*twice) + " twice", ec);
        }
        attach(std::move(n));
        return true;
    }
    void attach(json_node n)
    {
        if (open_.empty())
            root = std::move(n);
        else
            open_.back().items.push_back(std::move(n));
    }
};

}

std::string_view to_string(json_kind k)
{
    switch (k) {
    case json_kind::null: return "null";
    case json_kind::boolean: return "a boolean";
    case json_kind::number: return "a number";
    case json_kind::string: return "a string";
    case json_kind::array: return "an array";
    case json_kind::object: return "an object";
    }
    return "null";
}

json_node const* json_node::member(std::string_view name) const
{
    if (kind != json_kind::object)
        return nullptr;
    auto const it = std::find_if(items.begin(), items.end(), [&](json_node const& m) { return m.key == name; });
    return it == items.end() ? nullptr : &*it;
}

pricing::outcome<json_node> parse_exact_json(std::string_view text, exact_json_limits limits)
{
    if (text.size() > limits.max_bytes)
        return invalid("the document is larger than " + std::to_string(limits.max_bytes) + " bytes");
    json::parse_options options;
    options.max_depth = limits.max_depth;
    json::basic_parser<tree_builder> parser(options, text, limits.max_values);
    json::error_code ec;
    auto const used = parser.write_some(false, text.data(), text.size(), ec);
    if (!ec && used < text.size())
        ec = json::error::extra_data;
    tree_builder& built = parser.handler();
    if (!built.refusal.empty())
        return invalid(built.refusal);
    if (ec == json::error::too_deep)
        return invalid("the document nests arrays and objects deeper than " + std::to_string(limits.max_depth) + " levels");
    if (ec) {
        // The parser does not say where it stopped; the last token it read is close.
        auto const read = built.last ? std::string_view(text.data(), static_cast<std::size_t>(built.last - text.data()))
                                     : std::string_view();
        return invalid("not JSON: " + ec.message() + " (after line " +
                       std::to_string(1 + std::count(read.begin(), read.end(), '\n')) + ")");
    }
    return std::move(built.root);
}

std::optional<std::int64_t> whole_part(std::string_view number)
{
    std::string_view const whole = number.substr(0, number.find('.'));
    if (whole.empty() || whole.size() > 13 || whole.find_first_not_of("0123456789") != std::string_view::npos ||
        (whole.size() < number.size() && number.find_first_not_of("0123456789", whole.size() + 1) != std::string_view::npos))
        return std::nullopt;
    std::int64_t n = 0;
    for (char c : whole)
        n = n * 10 + (c - '0');
    if (n > (std::int64_t{1} << 40))
        return std::nullopt;
    return n;
}

member_reader::member_reader(json_node const& object, std::string where) : object_(object), where_(std::move(where)) {}

json_node const* member_reader::typed(std::string_view name, json_kind kind)
{
    json_node const* m = object_.member(name);
    if (!m || m->kind == json_kind::null)
        return nullptr;
    if (m->kind != kind) {
        if (!error_)
            error_ = invalid(where_ + "." + std::string(name) + " is " + std::string(to_string(m->kind)) + ", not " +
                             std::string(to_string(kind)));
        return nullptr;
    }
    return m;
}

std::string member_reader::number(std::string_view name)
{
    auto const* m = typed(name, json_kind::number);
    return m ? m->text : std::string();
}

std::string member_reader::text(std::string_view name)
{
    auto const* m = typed(name, json_kind::string);
    return m ? m->text : std::string();
}

std::optional<bool> member_reader::flag(std::string_view name)
{
    auto const* m = typed(name, json_kind::boolean);
    return m ? std::optional(m->text == "true") : std::nullopt;
}

pricing::outcome<std::vector<pricing::market_offer>> read_offer_array(
    json_node const& list, std::string_view where,
    std::function<pricing::outcome<pricing::market_offer>(member_reader&, std::string const& element)> const& read)
{
    if (list.kind != json_kind::array)
        return invalid(std::string(where) + " is " + std::string(to_string(list.kind)) + ", not an array");
    std::vector<pricing::market_offer> offers;
    offers.reserve(list.items.size());
    for (auto const& element : list.items) {
        std::string const at = std::string(where) + '[' + std::to_string(offers.size()) + ']';
        if (element.kind != json_kind::object)
            return invalid(at + " is " + std::string(to_string(element.kind)) + ", not an object");
        member_reader members(element, at);
        auto offer = read(members, at);
        // A member of the wrong type first: it is often why `read` refused.
        if (members.error())
            return *members.error();
        if (!offer)
            return offer.err();
        if (!pricing::is_listing_id(offer->listing_id))
            return invalid(at + ": the listing id must be " + pricing::listing_id_rule());
        offers.push_back(std::move(offer).value());
    }
    return offers;
}

}
