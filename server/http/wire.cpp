#include "server/http/wire.hpp"

#include <charconv>

namespace lcg::http {

namespace {

void append_number(std::string& out, long long n)
{
    char digits[24];
    auto const end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    out.append(digits, end);
}

bool has_body(int status) { return status >= 200 && status != 204 && status != 304; }

// `text` as a JSON string: method, target and client come from the network. Control bytes and
// bytes above 0x7f (a well-formed target is ASCII) are written as \u00XX, so a line is always
// valid JSON.
void append_json_string(std::string& out, std::string_view text)
{
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    for (char c : text) {
        auto const u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 || u > 0x7e) {
            out += "\\u00";
            out += hex[u >> 4];
            out += hex[u & 0xf];
        } else {
            out += c;
        }
    }
    out += '"';
}

}

void write_head(response const& res, std::string& out)
{
    out.clear();
    out += res.version() == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
    append_number(out, res.result_int());
    out += ' ';
    auto const reason = res.reason();
    out.append(reason.data(), reason.size());
    out += "\r\n";
    for (auto const& field : res) {
        auto const name = field.name_string();
        auto const value = field.value();
        out.append(name.data(), name.size());
        out += ": ";
        out.append(value.data(), value.size());
        out += "\r\n";
    }
    if (has_body(res.result_int()) && res.find(beast_http::field::content_length) == res.end() &&
        res.find(beast_http::field::transfer_encoding) == res.end()) {
        out += "Content-Length: ";
        append_number(out, static_cast<long long>(res.body().size()));
        out += "\r\n";
    }
    out += "\r\n";
}

void append_log_line(request_log_entry const& e, std::string& out)
{
    out += "{\"event\":\"request\",\"method\":";
    append_json_string(out, e.method);
    out += ",\"target\":";
    append_json_string(out, e.target.substr(0, 256));
    out += ",\"status\":";
    append_number(out, e.status);
    out += ",\"bytes\":";
    append_number(out, static_cast<long long>(e.bytes));
    out += ",\"client\":";
    append_json_string(out, e.client);
    out += ",\"micros\":";
    append_number(out, e.took.count());
    out += "}\n";
}

}
