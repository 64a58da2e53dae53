#include "server/http/http_date.hpp"

#include <array>
#include <chrono>

#include <time.h>

namespace lcg::http {

namespace {

using namespace std::chrono;

constexpr std::array<std::string_view, 7> day_names{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 12> month_names{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

std::string two(unsigned v) { return std::string{static_cast<char>('0' + v / 10 % 10), static_cast<char>('0' + v % 10)}; }

std::optional<int> number(std::string_view s)
{
    if (s.empty() || s.size() > 4)
        return std::nullopt;
    int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

std::optional<unsigned> month_of(std::string_view s)
{
    for (unsigned i = 0; i < month_names.size(); ++i)
        if (s == month_names[i])
            return i + 1;
    return std::nullopt;
}

// "08:49:37"
std::optional<seconds> time_of(std::string_view s)
{
    if (s.size() != 8 || s[2] != ':' || s[5] != ':')
        return std::nullopt;
    auto const h = number(s.substr(0, 2)), m = number(s.substr(3, 2)), sec = number(s.substr(6, 2));
    if (!h || !m || !sec || *h > 23 || *m > 59 || *sec > 60)
        return std::nullopt;
    return hours(*h) + minutes(*m) + seconds(*sec);
}

std::optional<pricing::instant> make(int y, std::optional<unsigned> mon, int d, std::optional<seconds> t)
{
    if (!mon || !t)
        return std::nullopt;
    year_month_day const ymd{year(y), month(*mon), day(static_cast<unsigned>(d))};
    if (!ymd.ok())
        return std::nullopt;
    return pricing::instant(sys_days(ymd).time_since_epoch() + *t);
}

}

std::string http_date(pricing::instant t)
{
    // Responses mostly carry the same Last-Modified (the sheet's): remember the last one formatted.
    thread_local pricing::instant last{};
    thread_local std::string last_text;
    if (t == last && !last_text.empty())
        return last_text;
    auto const days = floor<std::chrono::days>(t);
    year_month_day const ymd{days};
    hh_mm_ss const hms{t - days};
    last_text = std::string(day_names[weekday(days).c_encoding()]) + ", " + two(unsigned(ymd.day())) + " " +
                std::string(month_names[unsigned(ymd.month()) - 1]) + " " + std::to_string(int(ymd.year())) + " " +
                two(static_cast<unsigned>(hms.hours().count())) + ":" +
                two(static_cast<unsigned>(hms.minutes().count())) + ":" +
                two(static_cast<unsigned>(hms.seconds().count())) + " GMT";
    last = t;
    return last_text;
}

std::optional<pricing::instant> parse_http_date(std::string_view s)
{
    // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
    if (s.size() == 29 && s[3] == ',' && s[4] == ' ' && s[7] == ' ' && s[11] == ' ' && s[16] == ' ' &&
        s[25] == ' ' && s.substr(26) == "GMT") {
        auto const d = number(s.substr(5, 2)), y = number(s.substr(12, 4));
        if (!d || !y)
            return std::nullopt;
        return make(*y, month_of(s.substr(8, 3)), *d, time_of(s.substr(17, 8)));
    }
    // asctime: "Sun Nov  6 08:49:37 1994"
    if (s.size() == 24 && s[3] == ' ' && s[7] == ' ' && s[10] == ' ' && s[19] == ' ') {
        auto const day_text = s.substr(8, 2);
        auto const d = number(day_text.front() == ' ' ? day_text.substr(1) : day_text), y = number(s.substr(20, 4));
        if (!d || !y)
            return std::nullopt;
        return make(*y, month_of(s.substr(4, 3)), *d, time_of(s.substr(11, 8)));
    }
    // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT"
    auto const comma = s.find(", ");
    if (comma != std::string_view::npos && s.size() == comma + 24 && s.substr(comma + 21) == "GMT") {
        auto const rest = s.substr(comma + 2);
        if (rest[2] != '-' || rest[6] != '-' || rest[9] != ' ' || rest[18] != ' ')
            return std::nullopt;
        auto const d = number(rest.substr(0, 2)), yy = number(rest.substr(7, 2));
        if (!d || !yy)
            return std::nullopt;
        return make(*yy < 70 ? 2000 + *yy : 1900 + *yy, month_of(rest.substr(3, 3)), *d, time_of(rest.substr(10, 8)));
    }
    return std::nullopt;
}

std::int64_t date_field::coarse_seconds()
{
    timespec t{};
    ::clock_gettime(CLOCK_REALTIME_COARSE, &t);
    return t.tv_sec;
}

std::string_view date_field::now()
{
    if (auto const second = read_(); second != second_) {
        second_ = second;
        value_ = http_date(pricing::instant(std::chrono::seconds(second_)));
    }
    return value_;
}

}
