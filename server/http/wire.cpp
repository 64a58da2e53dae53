#include "server/http/wire.hpp"

#include "render/json_writer.hpp"

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

}

void write_head(response const& res, std::string& out, std::string_view date)
{
    out.clear();
    out += res.version() == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
    append_number(out, res.result_int());
    out += ' ';
    auto const reason = res.reason();
    out.append(reason.data(), reason.size());
    out += "\r\n";
    if (!date.empty()) {
        out += "Date: ";
        out.append(date.data(), date.size());
        out += "\r\n";
    }
    for (auto const& field : res) {
        auto const name = field.name_string();
        auto const value = field.value();
        out.append(name.data(), name.size());
        out += ": ";
        out.append(value.data(), value.size());
        out += "\r\n";
    }
    // A body sent in parts without Content-Length is framed by the connection (chunked, or the
    // end of the connection for an HTTP/1.0 client).
    if (has_body(res.result_int()) && res.find(beast_http::field::content_length) == res.end() &&
        res.find(beast_http::field::transfer_encoding) == res.end() && !res.body().source()) {
        out += "Content-Length: ";
        append_number(out, static_cast<long long>(res.body().size()));
        out += "\r\n";
    }
    out += "\r\n";
}

void append_log_line(request_log_entry const& e, std::string& out)
{
    out += "{\"event\":\"request\",\"method\":";
    render::append_json_string(out, e.method, true);
    out += ",\"target\":";
    render::append_json_string(out, e.target.substr(0, 256), true);
    out += ",\"status\":";
    append_number(out, e.status);
    out += ",\"bytes\":";
    append_number(out, static_cast<long long>(e.bytes));
    out += ",\"client\":";
    render::append_json_string(out, e.client, true);
    out += ",\"micros\":";
    append_number(out, e.took.count());
    out += "}\n";
}

}
